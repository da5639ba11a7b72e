"""Rows of a Markdown table, for the tables made from benchmark records."""


def header(cells):
    return ["| " + " | ".join(cells) + " |", "|" + "---|" * len(cells)]


def line(cells):
    return "| " + " | ".join(str(c) for c in cells) + " |"
