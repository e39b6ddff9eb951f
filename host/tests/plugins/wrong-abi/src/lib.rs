//! A plugin from a future henka-api: its ABI version is one the host does not know. The host must
//! refuse it after reading the version alone; its table is null, so a host that went on to read it
//! would fail with a different message and the test would notice.

use henka_api::abi::{ABI_VERSION, PluginTable};

#[unsafe(no_mangle)]
pub extern "C" fn henka_plugin_abi_version() -> u32 {
    ABI_VERSION + 1
}

#[unsafe(no_mangle)]
pub extern "C" fn henka_plugin_table() -> *const PluginTable {
    std::ptr::null()
}
