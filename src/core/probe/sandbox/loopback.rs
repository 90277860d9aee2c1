//! Brings up the loopback interface of a fresh network namespace (where it starts down), with one
//! rtnetlink request: no `ioctl`, so no unsafe code, and no `ip` program needed.

use nix::sys::socket::{
    AddressFamily, MsgFlags, NetlinkAddr, SockFlag, SockProtocol, SockType, recv, sendto, socket,
};

/// `RTM_NEWLINK`: change a link.
const RTM_NEWLINK: u16 = 16;
/// `NLM_F_REQUEST | NLM_F_ACK`.
const FLAGS: u16 = 0x1 | 0x4;
/// `NLMSG_ERROR`: the kernel's answer, an error code of 0 for success.
const NLMSG_ERROR: u16 = 2;
/// `IFF_UP`.
const IFF_UP: u32 = 0x1;
/// The loopback's index: always 1 in a network namespace.
const LOOPBACK_INDEX: i32 = 1;

/// The request: a netlink header and an `ifinfomsg` setting `IFF_UP` on the loopback.
fn request() -> Vec<u8> {
    let mut m = Vec::with_capacity(32);
    m.extend_from_slice(&32u32.to_ne_bytes()); // nlmsg_len
    m.extend_from_slice(&RTM_NEWLINK.to_ne_bytes()); // nlmsg_type
    m.extend_from_slice(&FLAGS.to_ne_bytes()); // nlmsg_flags
    m.extend_from_slice(&1u32.to_ne_bytes()); // nlmsg_seq
    m.extend_from_slice(&0u32.to_ne_bytes()); // nlmsg_pid: the kernel fills it in
    m.push(0); // ifi_family: AF_UNSPEC
    m.push(0); // padding
    m.extend_from_slice(&0u16.to_ne_bytes()); // ifi_type
    m.extend_from_slice(&LOOPBACK_INDEX.to_ne_bytes()); // ifi_index
    m.extend_from_slice(&IFF_UP.to_ne_bytes()); // ifi_flags
    m.extend_from_slice(&IFF_UP.to_ne_bytes()); // ifi_change
    m
}

/// The error the kernel's acknowledgement carries (0: done), if `answer` is one.
fn acknowledged(answer: &[u8]) -> Option<i32> {
    let kind = u16::from_ne_bytes(answer.get(4..6)?.try_into().ok()?);
    if kind != NLMSG_ERROR {
        return None;
    }
    Some(i32::from_ne_bytes(answer.get(16..20)?.try_into().ok()?))
}

/// Sets the loopback up in this process's network namespace (needs `CAP_NET_ADMIN` over it).
pub(super) fn up() -> std::io::Result<()> {
    let fd = socket(
        AddressFamily::Netlink,
        SockType::Raw,
        SockFlag::SOCK_CLOEXEC,
        SockProtocol::NetlinkRoute,
    )?;
    use std::os::fd::AsRawFd;
    sendto(
        fd.as_raw_fd(),
        &request(),
        &NetlinkAddr::new(0, 0),
        MsgFlags::empty(),
    )?;
    let mut buf = [0u8; 1024];
    let n = recv(fd.as_raw_fd(), &mut buf, MsgFlags::empty())?;
    match acknowledged(&buf[..n]) {
        Some(0) => Ok(()),
        Some(e) => Err(std::io::Error::from_raw_os_error(-e)),
        None => Err(std::io::Error::other("no acknowledgement from the kernel")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_request_is_as_long_as_it_says_and_asks_for_up() {
        let r = request();
        assert_eq!(r.len(), 32);
        assert_eq!(u32::from_ne_bytes(r[0..4].try_into().unwrap()), 32);
        assert_eq!(i32::from_ne_bytes(r[20..24].try_into().unwrap()), 1);
        assert_eq!(u32::from_ne_bytes(r[24..28].try_into().unwrap()), IFF_UP);
    }

    #[test]
    fn an_acknowledgement_carries_its_error() {
        let mut a = vec![0u8; 36];
        a[4..6].copy_from_slice(&NLMSG_ERROR.to_ne_bytes());
        a[16..20].copy_from_slice(&(-1i32).to_ne_bytes());
        assert_eq!(acknowledged(&a), Some(-1));
        a[4..6].copy_from_slice(&3u16.to_ne_bytes());
        assert_eq!(acknowledged(&a), None);
    }
}
