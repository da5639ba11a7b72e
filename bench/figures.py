"""Figures of the stored comparison records (bench_compare's), drawn with
matplotlib as SVG and checked without it.

One figure per record: each case's ratio against each peer (peer time /
distarray's time, log scale, above 1: distarray is faster), cases grouped by
kind along x, one colour per peer, the line at 1 marked.  Every point is an
SVG element whose id names its peer, case and ratio ("ratio|peer|case|2.13"),
so a check reads back what was drawn and compares it with the records
(bench/tables.py --check), whatever matplotlib version drew it.
"""
import json
import math
import xml.etree.ElementTree as ElementTree

import compare_summary
import record_tables

PREFIX = "ratio|"


def case_name(c):
    """A case of a comparison record in words, e.g. "transpose 4096^2 c128"."""
    return "%s %d^2 %s" % (c["case"], c["n"], "f64" if c["type"] == "double" else "c128")


def points(records):
    """What a figure of `records` shows: {(peer, case name): ratio as printed}, and the
    title that says which ranks."""
    cases = [c for r in records for c in r["cases"]]
    shown = {(peer, case_name(c)): "%.2f" % ratio for peer, c, ratio in compare_summary.compare_ratios(cases)}
    ranks = sorted({c["ranks"] for c in cases})
    title = "distarray against its peers, %s rank%s: peer time / distarray time" % (
        " and ".join(map(str, ranks)), "" if ranks == [1] else "s")
    return shown, title


def drawn(svg_path):
    """The points an SVG made by draw() holds: {(peer, case name): ratio}."""
    shown = {}
    for element in ElementTree.parse(svg_path).iter():
        gid = element.get("id", "")
        if gid.startswith(PREFIX):
            peer, case, ratio = gid[len(PREFIX):].split("|")
            shown[(peer, case)] = ratio
    return shown


def draw(records, svg_path):
    """Draws the figure of `records` into `svg_path`; returns its title."""
    import matplotlib
    matplotlib.use("svg")
    import matplotlib.pyplot as plt

    matplotlib.rcParams["svg.hashsalt"] = "distarray"  # the same file for the same records
    _, title = points(records)
    cases = [c for r in records for c in r["cases"]]
    kinds = list(dict.fromkeys(c["case"] for c in cases))  # along x, in the records' order
    peers = [short for short, _, _, _ in compare_summary.COMPARE_SUMMARY]
    fig, ax = plt.subplots(figsize=(11, 4.8))
    colours = plt.get_cmap("tab10")
    labelled = set()
    for peer, c, ratio in compare_summary.compare_ratios(cases):
        p, shown = peers.index(peer), "%.2f" % ratio
        x = kinds.index(c["case"]) + (p - (len(peers) - 1) / 2) * 0.1
        ax.plot([x], [float(shown)], "o", color=colours(p), markersize=4, alpha=0.8,
                label=None if peer in labelled else peer, gid="%s%s|%s|%s" % (PREFIX, peer, case_name(c), shown))
        labelled.add(peer)
    ax.axhline(1.0, color="black", linewidth=1)
    ax.text(-0.55, 1.0, "1: as fast", va="bottom", ha="left", fontsize=8)
    ax.set_yscale("log")
    low, high = ax.get_ylim()  # widened to powers of two, each labelled
    low, high = 2.0 ** math.floor(math.log2(min(low, 1))), 2.0 ** math.ceil(math.log2(max(high, 1)))
    ax.set_ylim(low / 1.15, high * 1.15)
    ax.set_yticks([2.0 ** e for e in range(round(math.log2(low)), round(math.log2(high)) + 1)])
    ax.set_yticklabels(["%g" % t for t in ax.get_yticks()])
    ax.minorticks_off()
    ax.set_ylabel("peer time / distarray time (above 1: distarray faster)")
    ax.set_xticks(range(len(kinds)))
    ax.set_xticklabels(kinds, rotation=30, ha="right", fontsize=8)
    ax.set_xlim(-0.6, len(kinds) - 0.4)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(svg_path, format="svg", metadata={"Date": None})
    plt.close(fig)
    return title


def load(paths):
    records = []
    for path in paths:
        with open(path) as f:
            records.append(json.load(f))
    if any(record_tables.bench_of(r) != "bench_compare" for r in records):
        raise ValueError("figures are drawn of bench_compare's records only")
    return records
