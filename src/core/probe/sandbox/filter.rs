//! The seccomp filter every probe runs under, in both sandbox modes: terminal ioctls that type
//! into, resize or take over a terminal are refused, whatever `dev.tty.legacy_tiocsti` says, and
//! so are the system calls a probe never needs that widen what it can reach (the list Flatpak
//! and Docker's default profile deny). Everything else is allowed: the filter is a wall around
//! known escapes, not an allow list a real interpreter would trip over.

use nix::libc;
use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};
use std::collections::BTreeMap;

/// Terminal ioctls refused with `EPERM`: every request that changes a terminal rather than
/// reads it. Faking input (`TIOCSTI`, and `TIOCLINUX`'s paste on a virtual console), resizing
/// (`TIOCSWINSZ`), redirecting the console (`TIOCCONS`), changing the line discipline, taking a
/// terminal as controlling one, leaving it or setting its foreground group, hanging it up,
/// rewriting its modes in every form the kernel takes (`TCSETS*`, the old `TCSETA*`, `termios2`'s
/// `TCSETS*2`, `TCSETX*`, the locked modes), flushing or stopping its queues (`TCFLSH`,
/// `TCXONC`), sending breaks, its exclusive mode, modem and serial lines, packet mode, a pty's
/// lock, its signals and the opening of a pty's peer.
// The request is a `c_ulong` on glibc and a `c_int` on musl: the cast is needed on one of them.
#[allow(clippy::unnecessary_cast)]
pub const TERMINAL_IOCTLS: [u64; 43] = [
    libc::TIOCSTI as u64,
    libc::TIOCLINUX as u64,
    libc::TIOCSWINSZ as u64,
    libc::TIOCCONS as u64,
    libc::TIOCSETD as u64,
    libc::TIOCSCTTY as u64,
    libc::TIOCNOTTY as u64,
    libc::TIOCSPGRP as u64,
    libc::TIOCVHANGUP as u64,
    libc::TCSETS as u64,
    libc::TCSETSW as u64,
    libc::TCSETSF as u64,
    libc::TCSETA as u64,
    libc::TCSETAW as u64,
    libc::TCSETAF as u64,
    libc::TCSETS2 as u64,
    libc::TCSETSW2 as u64,
    libc::TCSETSF2 as u64,
    libc::TCSETX as u64,
    libc::TCSETXF as u64,
    libc::TCSETXW as u64,
    libc::TIOCSLCKTRMIOS as u64,
    libc::TCFLSH as u64,
    libc::TCXONC as u64,
    libc::TCSBRK as u64,
    libc::TCSBRKP as u64,
    libc::TIOCSBRK as u64,
    libc::TIOCCBRK as u64,
    libc::TIOCEXCL as u64,
    libc::TIOCNXCL as u64,
    libc::TIOCMBIS as u64,
    libc::TIOCMBIC as u64,
    libc::TIOCMSET as u64,
    libc::TIOCSSOFTCAR as u64,
    libc::TIOCSSERIAL as u64,
    libc::TIOCSRS485 as u64,
    libc::TIOCSERCONFIG as u64,
    libc::TIOCSERSETMULTI as u64,
    libc::TIOCPKT as u64,
    libc::TIOCSPTLCK as u64,
    libc::TIOCSIG as u64,
    libc::TIOCGPTPEER as u64,
    libc::TIOCSERSWILD as u64,
];

/// System calls refused outright: kernel keyrings, tracing other processes, performance
/// counters and BPF (kernel attack surface), `io_uring` (its operations bypass this filter),
/// `userfaultfd`, the kernel log, accounting, module and kexec loading, and new mounts or
/// namespaces (the sandbox's own are already made).
const DENIED: [i64; 27] = [
    libc::SYS_add_key,
    libc::SYS_keyctl,
    libc::SYS_request_key,
    libc::SYS_ptrace,
    libc::SYS_process_vm_readv,
    libc::SYS_process_vm_writev,
    libc::SYS_perf_event_open,
    libc::SYS_bpf,
    libc::SYS_userfaultfd,
    libc::SYS_io_uring_setup,
    libc::SYS_io_uring_enter,
    libc::SYS_io_uring_register,
    libc::SYS_syslog,
    libc::SYS_acct,
    libc::SYS_init_module,
    libc::SYS_finit_module,
    libc::SYS_delete_module,
    libc::SYS_kexec_load,
    libc::SYS_mount,
    libc::SYS_umount2,
    libc::SYS_pivot_root,
    libc::SYS_unshare,
    libc::SYS_setns,
    libc::SYS_open_tree,
    libc::SYS_move_mount,
    libc::SYS_fsopen,
    libc::SYS_fsmount,
];

/// A seccomp filter that could not be built or installed.
#[derive(Debug, thiserror::Error)]
pub enum FilterError {
    /// The architecture has no filter.
    #[error("seccomp: {0} (no filter for this architecture)")]
    Arch(seccompiler::BackendError),
    /// The filter could not be compiled.
    #[error("seccomp: {0}")]
    Build(seccompiler::BackendError),
    /// The filter could not be installed.
    #[error("seccomp: {0}")]
    Install(seccompiler::Error),
}

/// The compiled filter, built before it is installed (compiling allocates).
pub fn build() -> Result<BpfProgram, FilterError> {
    let arch = TargetArch::try_from(std::env::consts::ARCH).map_err(FilterError::Arch)?;
    let err = FilterError::Build;
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> = BTreeMap::new();
    let mut ioctl = Vec::with_capacity(TERMINAL_IOCTLS.len());
    for request in TERMINAL_IOCTLS {
        // The request is an `unsigned int` in the kernel: compare the low 32 bits only, so a
        // value with junk in the high half is caught too.
        let cond = SeccompCondition::new(1, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, request)
            .map_err(err)?;
        ioctl.push(SeccompRule::new(vec![cond]).map_err(err)?);
    }
    rules.insert(libc::SYS_ioctl, ioctl);
    for call in DENIED {
        rules.insert(call, Vec::new());
    }
    let filter = SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EPERM as u32),
        arch,
    )
    .map_err(err)?;
    BpfProgram::try_from(filter).map_err(FilterError::Build)
}

/// Installs `program` on the calling thread (and so on everything it execs and forks from now
/// on), setting `no_new_privs` first as the kernel requires.
pub fn install(program: &BpfProgram) -> Result<(), FilterError> {
    seccompiler::apply_filter(program).map_err(FilterError::Install)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_filter_builds_for_this_machine() {
        let program = build().unwrap();
        // One check per refused ioctl and per denied call at least.
        assert!(program.len() > TERMINAL_IOCTLS.len() + DENIED.len());
    }

    #[test]
    fn every_terminal_changing_request_is_refused_once() {
        let mut seen = std::collections::BTreeSet::new();
        for r in TERMINAL_IOCTLS {
            assert!(seen.insert(r), "{r:#x} listed twice");
        }
        // Every request that writes a terminal's modes, in each form the kernel takes, and
        // the flush; reading requests stay allowed (interpreters ask `isatty`).
        #[allow(clippy::unnecessary_cast)]
        for needed in [
            libc::TCSETA,
            libc::TCSETAW,
            libc::TCSETAF,
            libc::TCSETS2,
            libc::TCSETSW2,
            libc::TCSETSF2,
            libc::TCFLSH,
            libc::TIOCSTI,
            libc::TIOCSWINSZ,
            libc::TIOCSCTTY,
        ] {
            assert!(seen.contains(&(needed as u64)), "{needed:#x}");
        }
        #[allow(clippy::unnecessary_cast)]
        for read in [
            libc::TCGETS,
            libc::TIOCGWINSZ,
            libc::TIOCGPGRP,
            libc::FIONREAD,
        ] {
            assert!(!seen.contains(&(read as u64)), "{read:#x} only reads");
        }
    }
}
