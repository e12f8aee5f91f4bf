"""Build libpagani.so from the repository's sources without the autotools.

What configure decides is decided here the same way: OpenMP when the C
compiler takes -fopenmp, the CUDA backend when nvcc is on the PATH or in
/usr/local/cuda/bin and its toolkit has nvrtc.h and libcudart_static.a
(PAGANI_WITHOUT_CUDA=1 is --without-cuda, PAGANI_CUDA_ARCH is
--with-cuda-arch, PAGANI_RUNTIME_CC the compiler for integrand source).
The files come from the Automake fragments (automake_fragments.py); the
NVRTC kernel texts are made by build-aux/kernel-src, as make does.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import List, Optional

from automake_fragments import Fragments, read_fragments

LIBRARY_NAME = "libpagani.so"


class BuildError(RuntimeError):
    """A step of the library's build failed; the message holds its log."""


def _run(command: List[str], cwd: Path) -> None:
    done = subprocess.run(command, cwd=cwd, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0:
        raise BuildError("command failed: %s\n%s"
                         % (shlex.join(command), done.stdout))


def _compiles(cc: List[str], flags: List[str]) -> bool:
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp, "probe.c")
        source.write_text("int main(void) { return 0; }\n")
        return subprocess.run(cc + flags + [str(source), "-o",
                                            str(Path(tmp, "probe"))],
                              stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL).returncode == 0


def find_cuda_home() -> Optional[Path]:
    """The CUDA toolkit configure would take, or None."""
    if os.environ.get("PAGANI_WITHOUT_CUDA", "") not in ("", "0"):
        return None
    nvcc = shutil.which("nvcc") or shutil.which(
        "nvcc", path="/usr/local/cuda/bin")
    if nvcc is None:
        return None
    home = Path(nvcc).resolve().parent.parent
    if ((home / "include" / "nvrtc.h").is_file()
            and (home / "lib64" / "libcudart_static.a").is_file()):
        return home
    return None


def package_version(top: Path) -> str:
    """The version configure.ac's AC_INIT gives."""
    match = re.search(r"AC_INIT\(\[[^]]*\],\s*\[([^]]*)\]",
                      (top / "configure.ac").read_text())
    if match is None:
        raise BuildError("configure.ac: no AC_INIT version")
    return match.group(1)


def _write_config_h(path: Path, version: str,
                    cuda_home: Optional[Path]) -> None:
    runtime_cc = os.environ.get("PAGANI_RUNTIME_CC") or "cc"
    lines = [
        "/* config.h - written by python/buildlib/build_library.py as",
        " * configure writes it. */",
        "#define PAGANI_DEFAULT_CC %s" % _c_string(runtime_cc),
        "#define PACKAGE \"libpagani\"",
        "#define PACKAGE_NAME \"libpagani\"",
        "#define PACKAGE_VERSION %s" % _c_string(version),
        "#define VERSION %s" % _c_string(version),
    ]
    if cuda_home is not None:
        lines += ["#define PAGANI_HAVE_CUDA 1",
                  "#define PAGANI_CUDA_HOME %s" % _c_string(str(cuda_home))]
    path.write_text("\n".join(lines) + "\n")


def _c_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _make_kernel_texts(top: Path, build: Path, fragments: Fragments) -> None:
    """Runs each rule whose recipe is $(PAGANI_KERNEL_SRC)."""
    names = {"top_srcdir": str(top), "top_builddir": str(build),
             "AM_V_GEN": "", "PAGANI_KERNEL_SRC":
             "sh " + shlex.quote(str(top / "build-aux" / "kernel-src"))}
    for target, recipe in fragments.rules.items():
        for line in recipe:
            if "$(PAGANI_KERNEL_SRC)" not in line:
                continue
            names["@"] = target
            command = fragments.expand(line.replace("$@", "$(@)"), names)
            _run(["sh", "-c", command], build)


def build_library(top: Path, build: Path, output: Path) -> bool:
    """Compiles the library into output/libpagani.so, with objects under
    `build`. Returns whether the CUDA backend was built."""
    build, output = build.resolve(), output.resolve()
    cuda_home = find_cuda_home()
    fragments = read_fragments(top, {"HAVE_CUDA": cuda_home is not None})
    build.mkdir(parents=True, exist_ok=True)
    output.mkdir(parents=True, exist_ok=True)
    _write_config_h(build / "config.h", package_version(top), cuda_home)
    _make_kernel_texts(top, build, fragments)

    cc = shlex.split(os.environ.get("CC") or "cc")
    openmp = ["-fopenmp"] if _compiles(cc, ["-fopenmp"]) else []
    cuda_cflags = ["-I%s/include" % cuda_home] if cuda_home else []
    include = ["-I%s" % (top / "include"), "-I%s" % (top / "src"),
               "-I%s" % top, "-I%s" % build]
    cflags = (["-std=gnu99", "-O2", "-fPIC", "-DPIC", "-DHAVE_CONFIG_H"]
              + include + cuda_cflags + openmp)

    jobs = []
    for source in fragments.words("libpagani_la_SOURCES"):
        if source.endswith(".c"):
            obj = build / (source[:-2] + ".o")
            jobs.append((obj, cc + cflags + ["-c", str(top / source),
                                             "-o", str(obj)]))
    link_libs: List[str] = []
    if cuda_home is not None:
        archs = os.environ.get("PAGANI_CUDA_ARCH", "80 90").split()
        gencode = ["-gencode=arch=compute_%s,code=sm_%s" % (a, a)
                   for a in archs]
        gencode.append("-gencode=arch=compute_%s,code=compute_%s"
                       % (archs[-1], archs[-1]))
        values = {"top_srcdir": str(top), "top_builddir": str(build),
                  "CUDA_GENCODE": " ".join(gencode), "NVCCFLAGS": ""}
        nvcc = [str(cuda_home / "bin" / "nvcc")]
        nvcc_flags = fragments.words("NVCC_FLAGS", values)
        for word in fragments.words("libpagani_la_LIBADD",
                                    {"CUDA_LIBS": ""}):
            if word.endswith(".lo"):
                obj = build / (word[:-3] + ".o")
                jobs.append((obj, nvcc + nvcc_flags + [
                    "-Xcompiler", "-fPIC", "-DPIC", "-c",
                    str(top / (word[:-3] + ".cu")), "-o", str(obj)]))
        link_libs = ["-L%s/lib64" % cuda_home, "-lcudart_static", "-lrt",
                     "-lpthread", "-ldl", "-lstdc++"]

    for obj, _ in jobs:
        obj.parent.mkdir(parents=True, exist_ok=True)
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        for future in [pool.submit(_run, command, build)
                       for _, command in jobs]:
            future.result()

    # Only the pagani_ namespace is exported, as libtool's
    # -export-symbols-regex '^pagani_' does in Makefile.am.
    script = build / "exports.map"
    script.write_text("{ global: pagani_*; local: *; };\n")
    _run(cc + ["-shared", "-o", str(output / LIBRARY_NAME)]
         + [str(obj) for obj, _ in jobs] + openmp
         + ["-Wl,--version-script=%s" % script, "-lm", "-ldl"] + link_libs,
         build)
    return cuda_home is not None
