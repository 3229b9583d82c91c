// Configs of the co-simulated designs; `build.rs` includes this file too, so the RTL and the
// model are always built from the same config.

/// The sweep's small design: 16 paths and a 5 us bitmap reset, so full bitmaps and resets come
/// often.
pub fn small_config() -> strack_config::Config {
    let mut c = strack_config::Config::default();
    c.entropy_bitmap.max_paths = 16;
    c.entropy_bitmap.bitmap_reset_interval_ns = Some(5_000);
    c
}
