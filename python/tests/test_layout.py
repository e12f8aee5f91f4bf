"""The ctypes structures match include/pagani.h: a C program built from
the repository's header prints each field's offset and the sizes."""

import ctypes
import subprocess
from pathlib import Path

import pytest

from pagani import _clib

HEADER = Path(__file__).resolve().parents[2] / "include" / "pagani.h"


@pytest.mark.parametrize("struct, ctype", [
    (_clib.Options, "pagani_options"), (_clib.ResultStruct, "pagani_result")])
def test_struct_matches_header(tmp_path, struct, ctype):
    if not HEADER.is_file():
        pytest.skip("not run from the source tree: no %s" % HEADER)
    fields = [name for name, _ in struct._fields_]
    lines = ['printf("%%zu\\n", offsetof(%s, %s));' % (ctype, name)
             for name in fields]
    program = tmp_path / "layout.c"
    program.write_text(
        "#include <stdio.h>\n#include <stddef.h>\n#include <pagani.h>\n"
        "int main(void) {\n%s\nprintf(\"%%zu\\n\", sizeof(%s));\nreturn 0;\n}\n"
        % ("\n".join(lines), ctype))
    subprocess.run(["cc", "-I", str(HEADER.parent), "-o",
                    str(tmp_path / "layout"), str(program)], check=True)
    printed = subprocess.run([str(tmp_path / "layout")], check=True,
                             capture_output=True, text=True).stdout.split()
    offsets = [getattr(struct, name).offset for name in fields]
    assert [int(v) for v in printed] == offsets + [ctypes.sizeof(struct)]
