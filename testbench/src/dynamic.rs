//! Designs Verilated at run time, for any config (`strackgen cosim`).
//!
//! The designs the tests co-simulate are compiled into the crate by `build.rs`, for the
//! project's own configs. A user's config is built here on demand: the block's Verilog
//! through `hdl`, `verilator --cc --trace-fst`, a C ABI shim whose accessors take a port's
//! index, all compiled with the system's C++ compiler into a shared library and loaded. The
//! library is cached under a key that hashes everything it is built from (the Verilog text,
//! the shim, the compiler command and the Verilator version), so a second run of the same
//! config starts at once and a changed generator never reuses a stale build.
//!
//! The Verilator include directory comes from the installed Verilator (`verilator --getenv
//! VERILATOR_ROOT`), never a path written here.

use std::collections::HashMap;
use std::ffi::{c_char, c_void, CString};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::{Dut, In, Out, PortInfo};

/// Bumped when the shim or the build recipe changes (part of the cache key).
const RECIPE: &str = "strackgen-cosim-shim-3";

/// A scratch directory name of its own: builds in one process (threads) and in several
/// processes sharing a cache never write into each other's.
fn scratch(cache: &Path, what: &str) -> PathBuf {
    static N: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    cache.join(format!(".build-{what}-{}-{n}", std::process::id()))
}

/// Put a finished scratch build in place; when another build of the same key got there first,
/// keep that one (it may be in use) and drop ours.
fn install(work: &Path, dir: &Path) -> Result<(), BuildError> {
    match std::fs::rename(work, dir) {
        Ok(()) => Ok(()),
        Err(_) if dir.is_dir() => {
            let _ = std::fs::remove_dir_all(work);
            Ok(())
        }
        Err(e) => Err(io(dir)(e)),
    }
}

/// Why a design could not be built or loaded.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error("{0}")]
    Generate(String),
    #[error("`{tool}` is needed to co-simulate ({why}); {hint}")]
    Tool {
        tool: String,
        why: String,
        hint: String,
    },
    #[error("{what} failed (exit {code}); its output is in {log}")]
    Step {
        what: String,
        code: String,
        log: String,
    },
    #[error("{path}: {err}")]
    Io { path: String, err: std::io::Error },
    #[error("loading {path}: {err}")]
    Load { path: String, err: String },
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> BuildError + '_ {
    move |err| BuildError::Io {
        path: path.display().to_string(),
        err,
    }
}

/// A port as the cache records it.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct CachedPort {
    name: String,
    output: bool,
    width: u32,
}

/// What the cache keeps beside the library: the ports (in the shim's index order) and the
/// latency, so that a cached build needs no generation.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Manifest {
    block: String,
    latency: u32,
    ports: Vec<CachedPort>,
}

type FnNew = unsafe extern "C" fn(i32) -> *mut c_void;
type FnPtr = unsafe extern "C" fn(*mut c_void);
type FnOpen = unsafe extern "C" fn(*mut c_void, *const c_char) -> i32;
type FnDump = unsafe extern "C" fn(*mut c_void, u64);
type FnSet = unsafe extern "C" fn(*mut c_void, u32, u64);
type FnGet = unsafe extern "C" fn(*mut c_void, u32) -> u64;
type FnSetW = unsafe extern "C" fn(*mut c_void, u32, *const u32);
type FnGetW = unsafe extern "C" fn(*mut c_void, u32, *mut u32);

/// A loaded design: the library and its entry points.
pub struct Design {
    /// The design's name in reports (`<block>@<key>`).
    pub name: &'static str,
    pub block: String,
    pub latency: u32,
    /// The cache directory it was built in (or found in).
    pub dir: PathBuf,
    /// Built now (false: found in the cache).
    pub built: bool,
    ports: &'static [PortInfo],
    index: HashMap<&'static str, u32>,
    new: FnNew,
    free: FnPtr,
    eval: FnPtr,
    trace_open: FnOpen,
    trace_dump: FnDump,
    trace_close: FnPtr,
    set: FnSet,
    get: FnGet,
    set_words: FnSetW,
    get_words: FnGetW,
    // Last: the entry points above are valid while the library is loaded.
    _lib: libloading::Library,
}

impl std::fmt::Debug for Design {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Design")
            .field("name", &self.name)
            .field("dir", &self.dir)
            .finish()
    }
}

impl Design {
    /// A fresh instance (every register at its power-on value); `trace`: able to write waves.
    pub fn instance(self: &Arc<Self>, trace: bool) -> DynDut {
        // SAFETY: the shim's constructor; the handle is freed once, in `Drop`.
        let h = unsafe { (self.new)(trace as i32) };
        DynDut {
            d: self.clone(),
            h,
            time: 0,
        }
    }

    pub fn ports(&self) -> &'static [PortInfo] {
        self.ports
    }
}

/// One instance of a [`Design`].
pub struct DynDut {
    d: Arc<Design>,
    h: *mut c_void,
    time: u64,
}

impl DynDut {
    fn port(&self, name: &str) -> u32 {
        *self
            .d
            .index
            .get(name)
            .unwrap_or_else(|| panic!("{}: no port `{name}` in the generated design", self.d.name))
    }
}

impl Drop for DynDut {
    fn drop(&mut self) {
        // SAFETY: the handle came from the design's constructor and is freed only here.
        unsafe { (self.d.free)(self.h) }
    }
}

// SAFETY (every call below): `h` is a live handle of this design's library, and port indices
// come from the design's own manifest; wide ports get buffers of their width in words.
impl Dut for DynDut {
    fn name(&self) -> &'static str {
        self.d.name
    }
    fn ports(&self) -> &'static [PortInfo] {
        self.d.ports
    }
    fn eval(&mut self) {
        unsafe { (self.d.eval)(self.h) }
    }
    fn time(&mut self) -> &mut u64 {
        &mut self.time
    }
    fn trace_open(&mut self, path: &Path) -> bool {
        let Ok(c) = CString::new(path.to_string_lossy().as_bytes()) else {
            return false;
        };
        unsafe { (self.d.trace_open)(self.h, c.as_ptr()) == 1 }
    }
    fn trace_dump(&mut self, t: u64) {
        unsafe { (self.d.trace_dump)(self.h, t) }
    }
    fn trace_close(&mut self) {
        unsafe { (self.d.trace_close)(self.h) }
    }
    fn set(&mut self, port: In, v: u64) {
        let i = self.port(port.0);
        unsafe { (self.d.set)(self.h, i, v) }
    }
    fn get(&self, port: Out) -> u64 {
        let i = self.port(port.0);
        unsafe { (self.d.get)(self.h, i) }
    }
    fn set_words(&mut self, port: In, w: &[u32]) {
        let i = self.port(port.0);
        let need = self.d.ports[i as usize].width.div_ceil(32) as usize;
        let mut buf = w.to_vec();
        buf.resize(need, 0);
        unsafe { (self.d.set_words)(self.h, i, buf.as_ptr()) }
    }
    fn get_words(&self, port: Out) -> Vec<u32> {
        let i = self.port(port.0);
        let mut w = vec![0u32; self.d.ports[i as usize].width.div_ceil(32) as usize];
        unsafe { (self.d.get_words)(self.h, i, w.as_mut_ptr()) };
        w
    }
}

/// How to build: the tools, where the cache is, and what to say while building.
#[derive(Debug, Clone)]
pub struct Toolchain {
    pub verilator: String,
    pub cxx: String,
    pub cache: PathBuf,
}

impl Toolchain {
    /// `VERILATOR` and `CXX` from the environment (else `verilator` and `c++`).
    pub fn from_env(cache: PathBuf) -> Self {
        Toolchain {
            verilator: std::env::var("VERILATOR").unwrap_or_else(|_| "verilator".into()),
            cxx: std::env::var("CXX").unwrap_or_else(|_| "c++".into()),
            cache,
        }
    }

    fn verilator_version(&self) -> Result<String, BuildError> {
        let out = Command::new(&self.verilator)
            .arg("--version")
            .output()
            .map_err(|e| BuildError::Tool {
                tool: self.verilator.clone(),
                why: e.to_string(),
                hint: "install Verilator 5 (make deps), or set VERILATOR to its path".into(),
            })?;
        let v = String::from_utf8_lossy(&out.stdout).trim().to_string();
        let major: u32 = v
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.split('.').next())
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        if major < 5 {
            return Err(BuildError::Tool {
                tool: self.verilator.clone(),
                why: format!("found `{v}`, need version 5"),
                hint: "install Verilator 5 (make deps), or set VERILATOR to its path".into(),
            });
        }
        Ok(v)
    }

    /// `<VERILATOR_ROOT>/include`, asked of the installed Verilator.
    fn include(&self) -> Result<PathBuf, BuildError> {
        let out = Command::new(&self.verilator)
            .args(["--getenv", "VERILATOR_ROOT"])
            .output()
            .map_err(|e| BuildError::Tool {
                tool: self.verilator.clone(),
                why: e.to_string(),
                hint: "install Verilator 5 (make deps)".into(),
            })?;
        let root = String::from_utf8_lossy(&out.stdout).trim().to_string();
        let inc = Path::new(&root).join("include");
        if !inc.join("verilated_fst_c.cpp").is_file() {
            return Err(BuildError::Tool {
                tool: self.verilator.clone(),
                why: format!(
                    "`verilator --getenv VERILATOR_ROOT` gave `{root}`, without \
                     include/verilated_fst_c.cpp"
                ),
                hint: "is Verilator 5 installed whole?".into(),
            });
        }
        Ok(inc)
    }

    fn cxx_base(&self, inc: &Path) -> Command {
        let mut c = Command::new(&self.cxx);
        c.args(["-std=c++17", "-O2", "-fPIC", "-fvisibility=hidden", "-w"])
            .arg("-faligned-new")
            .arg(format!("-I{}", inc.display()))
            .arg(format!("-I{}", inc.join("vltstd").display()))
            .args([
                "-DVM_TRACE=1",
                "-DVM_TRACE_FST=1",
                "-DVM_TRACE_VCD=0",
                "-DVM_COVERAGE=0",
                "-DVM_SC=0",
            ]);
        c
    }
}

/// Run `cmd`, its output into `log`; a failure names `what` and the log.
fn step(what: &str, cmd: &mut Command, log: &Path) -> Result<(), BuildError> {
    let out = cmd.output().map_err(|e| BuildError::Tool {
        tool: format!("{:?}", cmd.get_program()),
        why: e.to_string(),
        hint: "install it (make deps), or set VERILATOR / CXX".into(),
    })?;
    let mut text = out.stdout;
    text.extend_from_slice(&out.stderr);
    std::fs::write(log, &text).map_err(io(log))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(BuildError::Step {
            what: what.into(),
            code: out
                .status
                .code()
                .map_or("by a signal".into(), |c| c.to_string()),
            log: log.display().to_string(),
        })
    }
}

/// Spawn `cmd` (output to `log`) for [`wait`].
fn spawn(cmd: &mut Command, log: &Path) -> Result<std::process::Child, BuildError> {
    let f = std::fs::File::create(log).map_err(io(log))?;
    let f2 = f.try_clone().map_err(io(log))?;
    cmd.stdout(f)
        .stderr(f2)
        .spawn()
        .map_err(|e| BuildError::Tool {
            tool: format!("{:?}", cmd.get_program()),
            why: e.to_string(),
            hint: "install a C++ compiler (g++), or set CXX".into(),
        })
}

fn wait(what: &str, mut child: std::process::Child, log: &Path) -> Result<(), BuildError> {
    let st = child.wait().map_err(io(log))?;
    if st.success() {
        Ok(())
    } else {
        Err(BuildError::Step {
            what: what.into(),
            code: st.code().map_or("by a signal".into(), |c| c.to_string()),
            log: log.display().to_string(),
        })
    }
}

/// The C ABI shim: accessors by port index, so one set of entry points serves any design.
fn shim(ports: &[CachedPort]) -> String {
    let mut s = String::from(
        "// Generated by strackgen cosim: the design's C ABI.\n\
         #include \"Vdut.h\"\n#include \"verilated_fst_c.h\"\n#include <cstdint>\n#include <cstddef>\n\
         #define API extern \"C\" __attribute__((visibility(\"default\")))\n\
         struct H { VerilatedContext ctx; Vdut* top = nullptr; VerilatedFstC* tfp = nullptr; bool trace_on = false; };\n\
         API void* sg_new(int trace) { auto h = new H(); if (trace) { h->ctx.traceEverOn(true); h->trace_on = true; } h->top = new Vdut(&h->ctx, \"top\"); return h; }\n\
         API void sg_trace_close(void* p) { auto h = (H*)p; if (h->tfp) { h->tfp->close(); delete h->tfp; h->tfp = nullptr; } }\n\
         API void sg_free(void* p) { auto h = (H*)p; sg_trace_close(p); h->top->final(); delete h->top; delete h; }\n\
         API void sg_eval(void* p) { ((H*)p)->top->eval(); }\n\
         API int sg_trace_open(void* p, const char* path) { auto h = (H*)p; if (!h->trace_on || h->tfp) return 0; h->tfp = new VerilatedFstC; h->top->trace(h->tfp, 99); h->tfp->open(path); return h->tfp->isOpen() ? 1 : 0; }\n\
         API void sg_trace_dump(void* p, uint64_t t) { auto h = (H*)p; if (h->tfp) h->tfp->dump(t); }\n",
    );
    let case = |s: &mut String, sig: &str, body: &dyn Fn(usize, &CachedPort) -> Option<String>| {
        let _ = writeln!(s, "API {sig} {{ auto t = ((H*)p)->top; switch (i) {{");
        for (i, port) in ports.iter().enumerate() {
            if let Some(b) = body(i, port) {
                let _ = writeln!(s, "  case {i}: {b}");
            }
        }
        let _ = writeln!(
            s,
            "  default: break; }}{} }}",
            if sig.starts_with("uint64_t") {
                " return 0;"
            } else {
                ""
            }
        );
    };
    case(
        &mut s,
        "void sg_set(void* p, uint32_t i, uint64_t v)",
        &|_, p| (!p.output && p.width <= 64).then(|| format!("t->{} = v; break;", p.name)),
    );
    case(&mut s, "uint64_t sg_get(void* p, uint32_t i)", &|_, p| {
        (p.width <= 64).then(|| format!("return t->{};", p.name))
    });
    case(
        &mut s,
        "void sg_set_words(void* p, uint32_t i, const uint32_t* w)",
        &|_, p| {
            (!p.output && p.width > 64).then(|| {
                format!(
                    "for (size_t k = 0; k < {}; k++) t->{}[k] = w[k]; break;",
                    p.width.div_ceil(32),
                    p.name
                )
            })
        },
    );
    case(
        &mut s,
        "void sg_get_words(void* p, uint32_t i, uint32_t* w)",
        &|_, p| {
            (p.width > 64).then(|| {
                format!(
                    "for (size_t k = 0; k < {}; k++) w[k] = t->{}[k]; break;",
                    p.width.div_ceil(32),
                    p.name
                )
            })
        },
    );
    s
}

/// Build (or find in the cache) `block` at `cfg` with generation options `opts`, and load it.
/// `say` hears what is being done (building takes a minute or more for a large design).
pub fn build(
    block: &str,
    cfg: &strack_config::Config,
    opts: &hdl::Options,
    tc: &Toolchain,
    say: &mut dyn FnMut(&str),
) -> Result<Arc<Design>, BuildError> {
    let generated =
        hdl::generate(block, cfg, opts).map_err(|e| BuildError::Generate(e.to_string()))?;
    let ports: Vec<CachedPort> = generated
        .ports
        .iter()
        .map(|p| CachedPort {
            name: p.name.clone(),
            output: p.dir == hdl::Dir::Output,
            width: p.width,
        })
        .collect();
    let shim_text = shim(&ports);
    let version = tc.verilator_version()?;
    let inc = tc.include()?;
    // Absolute, so that the compiler's and the loader's paths do not depend on where they run.
    std::fs::create_dir_all(&tc.cache).map_err(io(&tc.cache))?;
    let cache = tc.cache.canonicalize().map_err(io(&tc.cache))?;
    let tc = &Toolchain {
        cache,
        ..tc.clone()
    };
    let mut h = Sha256::new();
    for part in [
        RECIPE,
        block,
        &generated.verilog,
        &shim_text,
        &version,
        &tc.cxx,
        &inc.display().to_string(),
    ] {
        h.update(part.as_bytes());
        h.update([0]);
    }
    let key: String = h
        .finalize()
        .iter()
        .take(8)
        .map(|b| format!("{b:02x}"))
        .collect();
    let dir = tc.cache.join(format!("{block}-{key}"));
    let lib = dir.join("libdut.so");
    let manifest_path = dir.join("manifest.json");
    let mut built = false;
    if !(lib.is_file() && manifest_path.is_file()) {
        say(&format!(
            "building {block} for this config (Verilator, then the C++ compiler; cached in {})",
            dir.display()
        ));
        build_into(
            &tc.cache,
            &dir,
            block,
            &generated.verilog,
            &shim_text,
            &Manifest {
                block: block.into(),
                latency: generated.latency,
                ports: ports.clone(),
            },
            tc,
            &inc,
            &key,
        )?;
        built = true;
    }
    load(&dir, &format!("{block}@{key}"), built)
}

/// Build into a scratch directory beside `dir` and rename it in place once whole, so that an
/// interrupted build is never taken for a cached one.
#[allow(clippy::too_many_arguments)]
fn build_into(
    cache: &Path,
    dir: &Path,
    block: &str,
    verilog: &str,
    shim_text: &str,
    manifest: &Manifest,
    tc: &Toolchain,
    inc: &Path,
    key: &str,
) -> Result<(), BuildError> {
    let rt = runtime(cache, tc, inc)?;
    let work = scratch(cache, &format!("{block}-{key}"));
    std::fs::create_dir_all(&work).map_err(io(&work))?;
    let v = work.join(format!("{block}.v"));
    std::fs::write(&v, verilog).map_err(io(&v))?;
    step(
        "verilator",
        Command::new(&tc.verilator)
            .args([
                "--cc",
                "--trace-fst",
                "-Wno-fatal",
                "-Wno-lint",
                "-Wno-style",
            ])
            .args(["-O3", "--prefix", "Vdut", "--top-module", block, "--Mdir"])
            .arg(work.join("obj"))
            .arg(&v),
        &work.join("verilator.log"),
    )?;
    let shim_cpp = work.join("obj").join("shim.cpp");
    std::fs::write(&shim_cpp, shim_text).map_err(io(&shim_cpp))?;
    // The generated C++ in two units, compiled side by side (2 cores), the larger files
    // spread between them; one unit per core parses Verilator's headers once per core.
    let mut files: Vec<(u64, PathBuf)> = std::fs::read_dir(work.join("obj"))
        .map_err(io(&work))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cpp"))
        .map(|p| (std::fs::metadata(&p).map(|m| m.len()).unwrap_or(0), p))
        .collect();
    files.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut units = [(0u64, String::new()), (0u64, String::new())];
    for (len, f) in &files {
        let u = if units[0].0 <= units[1].0 { 0 } else { 1 };
        units[u].0 += len;
        // Relative to the unit (in `work`), so that any cache path works.
        let name = f.file_name().map(|n| n.to_string_lossy().into_owned());
        let _ = writeln!(units[u].1, "#include \"obj/{}\"", name.unwrap_or_default());
    }
    let mut children = Vec::new();
    for (i, (_, text)) in units.iter().enumerate() {
        if text.is_empty() {
            continue;
        }
        let src = work.join(format!("unit{i}.cpp"));
        std::fs::write(&src, text).map_err(io(&src))?;
        let obj = work.join(format!("unit{i}.o"));
        let log = work.join(format!("unit{i}.log"));
        let mut c = tc.cxx_base(inc);
        c.arg(format!("-I{}", work.join("obj").display()))
            .arg("-c")
            .arg(&src)
            .arg("-o")
            .arg(&obj);
        children.push((spawn(&mut c, &log)?, log, obj));
    }
    let mut objs = Vec::new();
    for (child, log, obj) in children {
        wait("the C++ compile of the design", child, &log)?;
        objs.push(obj);
    }
    let lib = work.join("libdut.so");
    step(
        "linking the design",
        Command::new(&tc.cxx)
            .args(["-shared", "-o"])
            .arg(&lib)
            .args(&objs)
            .args(&rt)
            .args(["-lz", "-lpthread"]),
        &work.join("link.log"),
    )?;
    let m = work.join("manifest.json");
    std::fs::write(
        &m,
        serde_json::to_string_pretty(manifest).expect("a manifest serialises"),
    )
    .map_err(io(&m))?;
    // A directory left by a build that stopped part way has no manifest: replace it.
    if dir.is_dir() && !dir.join("manifest.json").is_file() {
        let _ = std::fs::remove_dir_all(dir);
    }
    install(&work, dir)
}

/// Verilator's runtime, compiled once per cache and Verilator install.
fn runtime(cache: &Path, tc: &Toolchain, inc: &Path) -> Result<Vec<PathBuf>, BuildError> {
    let mut h = Sha256::new();
    h.update(RECIPE.as_bytes());
    h.update(inc.display().to_string().as_bytes());
    h.update(tc.verilator_version()?.as_bytes());
    h.update(tc.cxx.as_bytes());
    let key: String = h
        .finalize()
        .iter()
        .take(6)
        .map(|b| format!("{b:02x}"))
        .collect();
    let dir = cache.join(format!("runtime-{key}"));
    let names = ["verilated", "verilated_fst_c", "verilated_threads"];
    let objs: Vec<PathBuf> = names.iter().map(|n| dir.join(format!("{n}.o"))).collect();
    if objs.iter().all(|o| o.is_file()) {
        return Ok(objs);
    }
    let work = scratch(cache, &format!("runtime-{key}"));
    std::fs::create_dir_all(&work).map_err(io(&work))?;
    let mut children = Vec::new();
    for n in names {
        let log = work.join(format!("{n}.log"));
        let mut c = tc.cxx_base(inc);
        c.arg("-c")
            .arg(inc.join(format!("{n}.cpp")))
            .arg("-o")
            .arg(work.join(format!("{n}.o")));
        children.push((spawn(&mut c, &log)?, log));
    }
    for (child, log) in children {
        wait("the C++ compile of Verilator's runtime", child, &log)?;
    }
    if dir.is_dir() && !objs.iter().all(|o| o.is_file()) {
        let _ = std::fs::remove_dir_all(&dir);
    }
    install(&work, &dir)?;
    Ok(objs)
}

/// Load a built design from `dir`.
fn load(dir: &Path, name: &str, built: bool) -> Result<Arc<Design>, BuildError> {
    let mp = dir.join("manifest.json");
    let text = std::fs::read_to_string(&mp).map_err(io(&mp))?;
    let m: Manifest = serde_json::from_str(&text).map_err(|e| BuildError::Load {
        path: mp.display().to_string(),
        err: e.to_string(),
    })?;
    let path = dir.join("libdut.so");
    let err = |e: libloading::Error| BuildError::Load {
        path: path.display().to_string(),
        err: e.to_string(),
    };
    // SAFETY: a library this module built, whose initialisers are Verilator's runtime.
    let lib = unsafe { libloading::Library::new(&path) }.map_err(err)?;
    // Names live as long as the process: a design is loaded a few times per run at most.
    let ports: &'static [PortInfo] = Box::leak(
        m.ports
            .iter()
            .map(|p| PortInfo {
                name: Box::leak(p.name.clone().into_boxed_str()),
                output: p.output,
                width: p.width,
            })
            .collect::<Vec<_>>()
            .into_boxed_slice(),
    );
    let index = ports
        .iter()
        .enumerate()
        .map(|(i, p)| (p.name, i as u32))
        .collect();
    macro_rules! sym {
        ($t:ty, $n:literal) => {
            // SAFETY: the shim defines each entry point with this type.
            *unsafe { lib.get::<$t>($n) }.map_err(err)?
        };
    }
    Ok(Arc::new(Design {
        name: Box::leak(name.to_string().into_boxed_str()),
        block: m.block,
        latency: m.latency,
        dir: dir.to_path_buf(),
        built,
        ports,
        index,
        new: sym!(FnNew, b"sg_new"),
        free: sym!(FnPtr, b"sg_free"),
        eval: sym!(FnPtr, b"sg_eval"),
        trace_open: sym!(FnOpen, b"sg_trace_open"),
        trace_dump: sym!(FnDump, b"sg_trace_dump"),
        trace_close: sym!(FnPtr, b"sg_trace_close"),
        set: sym!(FnSet, b"sg_set"),
        get: sym!(FnGet, b"sg_get"),
        set_words: sym!(FnSetW, b"sg_set_words"),
        get_words: sym!(FnGetW, b"sg_get_words"),
        _lib: lib,
    }))
}
