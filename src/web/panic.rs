//! A panic hook that logs to the console and also tells the page (or the worker's owner), so
//! a panic is never a silent dead figure.

use wasm_bindgen::JsValue;

/// Installs the hook (idempotent).
pub fn install_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            console_error_panic_hook::hook(info);
            report(&info.to_string());
        }));
    });
}

/// Calls `globalThis.pgbookPanic(message)` when the page or worker defines it.
fn report(message: &str) {
    let global = js_sys::global();
    if let Ok(f) = js_sys::Reflect::get(&global, &JsValue::from_str("pgbookPanic")) {
        if let Some(f) = wasm_bindgen::JsCast::dyn_ref::<js_sys::Function>(&f) {
            let _ = f.call1(&JsValue::NULL, &JsValue::from_str(message));
        }
    }
}
