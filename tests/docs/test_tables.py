#!/usr/bin/env python3
"""docs/performance.md's tables, and the README's summary, are the ones
bench/tables.py makes from the stored records: --check passes on both, fails
on a copy of performance.md with one figure changed, and --update makes that
copy the document again.
    test_tables.py SOURCE_DIR"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

source = sys.argv[1]
tables = os.path.join(source, "bench", "tables.py")
document = os.path.join(source, "docs", "performance.md")


def run(mode, path):
    return subprocess.run([sys.executable, tables, mode, path], capture_output=True, text=True)


checked = run("--check", document)
assert checked.returncode == 0, checked.stderr
count = int(re.search(r"(\d+) tables match", checked.stdout).group(1))
assert count >= 8, "only %d marked tables in %s" % (count, document)
readme = run("--check", os.path.join(source, "README.md"))
assert readme.returncode == 0 and "1 tables match" in readme.stdout, readme.stderr

with tempfile.TemporaryDirectory() as folder:
    os.mkdir(os.path.join(folder, "docs"))
    shutil.copytree(os.path.join(source, "docs", "bench"), os.path.join(folder, "docs", "bench"))
    copy = os.path.join(folder, "docs", "performance.md")
    with open(document) as f:
        text = f.read()
    block = text.index("<!-- table: ")
    figure = re.compile(r"\| (\d+)\.(\d\d) \|").search(text, block)
    changed = text[:figure.start(1)] + str(int(figure.group(1)) + 1) + text[figure.end(1):]
    with open(copy, "w") as f:
        f.write(changed)
    assert run("--check", copy).returncode == 1, "a changed figure passed the check"
    assert run("--update", copy).returncode == 0
    with open(copy) as f:
        assert f.read() == text, "--update did not restore the table from its records"
print("performance.md: %d tables made from their records; a changed figure is caught" % count)
