//! skillscope's own folders: the cache (token counts, unpacked demo) and the config (state).

use std::path::PathBuf;

/// `$SKILLSCOPE_CACHE_DIR`, else `<cache_dir>/skillscope`.
pub fn cache_root() -> PathBuf {
    std::env::var_os("SKILLSCOPE_CACHE_DIR")
        .map(PathBuf::from)
        .or_else(|| dirs::cache_dir().map(|d| d.join("skillscope")))
        .unwrap_or_else(|| std::env::temp_dir().join("skillscope-cache"))
}

/// `$SKILLSCOPE_CONFIG_DIR`, else `<config_dir>/skillscope`.
pub fn config_root() -> PathBuf {
    std::env::var_os("SKILLSCOPE_CONFIG_DIR")
        .map(PathBuf::from)
        .or_else(|| dirs::config_dir().map(|d| d.join("skillscope")))
        .unwrap_or_else(|| std::env::temp_dir().join("skillscope-config"))
}
