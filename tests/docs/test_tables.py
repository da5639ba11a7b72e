#!/usr/bin/env python3
"""docs/performance.md's tables and figures, and the README's summary and
figure, are the ones bench/tables.py makes from the stored records: --check
passes on both, fails on a copy of performance.md with one number changed or
one point of a figure moved, and --update makes that copy the document again
(without matplotlib, only the check of the points drawn runs).
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
count, drawn = map(int, re.search(r"(\d+) tables and (\d+) figures match", checked.stdout).groups())
assert count >= 8 and drawn >= 2, "only %d marked tables and %d figures in %s" % (count, drawn, document)
readme = run("--check", os.path.join(source, "README.md"))
assert readme.returncode == 0 and "1 tables and 1 figures match" in readme.stdout, readme.stderr

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
    assert run("--check", copy).returncode == 1, "a changed number passed the check"

    # One point of a figure moved: its SVG no longer holds the records' ratio.
    shutil.copytree(os.path.join(source, "docs", "figures"), os.path.join(folder, "docs", "figures"))
    svg = os.path.join(folder, "docs", "figures", "compare_np2.svg")
    with open(svg) as f:
        picture = f.read()
    point = re.search(r'id="ratio\|[^"]*\|(\d+)\.(\d\d)"', picture)
    with open(svg, "w") as f:
        f.write(picture[:point.start(1)] + str(int(point.group(1)) + 1) + picture[point.end(1):])
    with open(copy, "w") as f:
        f.write(text)
    moved = run("--check", copy)
    assert moved.returncode == 1 and "compare_np2.svg" in moved.stderr, "a moved point passed the check"
    with open(copy, "w") as f:
        f.write(changed)

    try:
        import matplotlib  # noqa: F401 (--update draws)
        drawing = True
    except ImportError:
        drawing = False
    if drawing:
        assert run("--update", copy).returncode == 0
        with open(copy) as f:
            assert f.read() == text, "--update did not restore the table from its records"
        assert run("--check", copy).returncode == 0, "--update did not draw the figure again"
print("performance.md: %d tables and %d figures made from their records; a changed number and a moved point "
      "are caught%s" % (count, drawn, "" if drawing else " (no matplotlib: --update not tried)"))
