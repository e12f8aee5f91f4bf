"""Builds the pagani package: the C library is compiled from this source
tree (python/buildlib) into pagani/libpagani.so, unless PAGANI_PREFIX
names an installed libpagani (PREFIX/lib/libpagani.so) to use instead."""

import os
import sys
from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
TOP = HERE.parent
sys.path.insert(0, str(HERE / "buildlib"))
from build_library import build_library, package_version  # noqa: E402


class BinaryDistribution(Distribution):
    """The wheel holds a shared library: tag it for this platform."""

    def has_ext_modules(self):
        return True


class BuildWithLibrary(build_py):
    """build_py, then the library (or the path of an installed one)."""

    def run(self):
        super().run()
        package = Path(self.build_lib, "pagani")
        prefix = os.environ.get("PAGANI_PREFIX")
        if prefix:
            library = Path(prefix, "lib", "libpagani.so").resolve()
            if not library.is_file():
                raise SystemExit("PAGANI_PREFIX=%s: no %s" % (prefix, library))
            where = str(library)
        else:
            temp = Path(self.get_finalized_command("build").build_temp)
            with_cuda = build_library(TOP, temp / "libpagani", package)
            print("libpagani built %s the CUDA backend"
                  % ("with" if with_cuda else "without"))
            where = "libpagani.so"
        (package / "_library_path.py").write_text(
            '"""Written by setup.py: the libpagani this package loads '
            '(relative: inside the package)."""\nLIBRARY = %r\n' % where)


setup(version=package_version(TOP), distclass=BinaryDistribution,
      cmdclass={"build_py": BuildWithLibrary}, zip_safe=False)
