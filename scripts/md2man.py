#!/usr/bin/env python3
"""Turn one of sbx-oci's markdown pages into a manual page (roff, man macros).

Usage: md2man.py NAME SECTION DESCRIPTION INPUT.md OUTPUT

The markdown is the one source: docs/man/sbx-oci.1.md for sbx-oci(1),
docs/config.md for sbx-oci-config(5).  It understands what those pages use:
the first "# " heading (dropped: NAME comes from the arguments), "## " as a
section, "### " as a subsection, paragraphs, "- " lists, fenced code, pipe
tables (each row a tagged paragraph: the first cell, then the others), and
inline `code`, **bold**, *italic* and [links](url).  Standard library only.
"""
import re
import sys


def escape(text):
    text = text.replace("\\", "\\e").replace("-", "\\-")
    # Anything beyond ASCII as groff's \[uXXXX], which every device renders.
    return "".join(c if ord(c) < 128 else "\\[u%04X]" % ord(c) for c in text)


def inline(text):
    text = re.sub(r"\[([^\]]+)\]\(([^)]+)\)", r"\1", text)
    parts = re.split(r"(`[^`]*`)", text)
    out = []
    for part in parts:
        if part.startswith("`") and part.endswith("`") and len(part) >= 2:
            out.append("\\fB" + escape(part[1:-1]) + "\\fR")
            continue
        part = escape(part)
        part = re.sub(r"\*\*([^*]+)\*\*", r"\\fB\1\\fR", part)
        part = re.sub(r"(?<![\w*])\*([^*\s][^*]*)\*(?![\w*])", r"\\fI\1\\fR", part)
        out.append(part)
    return "".join(out)


def line_safe(text):
    return "\\&" + text if text[:1] in (".", "'") else text


def table_row(line):
    """The cells of "| a | `b|c` |": a "|" inside `code` is no separator."""
    cells, cell, in_code = [], "", False
    for c in line.strip().strip("|"):
        if c == "`":
            in_code = not in_code
        if c == "|" and not in_code:
            cells.append(cell.strip())
            cell = ""
        else:
            cell += c
    return cells + [cell.strip()]


def convert(lines, name, section, description):
    out = [f'.TH {name.upper()} {section} "" "sbx-oci" "sbx-oci manual"',
           ".SH NAME", f"{escape(name)} \\- {escape(description)}"]
    para = []
    i = 0
    seen_title = False

    def flush():
        if para:
            out.append(".PP")
            out.append(line_safe(inline(" ".join(para))))
            para.clear()

    while i < len(lines):
        line = lines[i].rstrip("\n")
        if line.startswith("```"):
            flush()
            out += [".PP", ".RS 4", ".nf"]
            i += 1
            while i < len(lines) and not lines[i].startswith("```"):
                out.append(line_safe(escape(lines[i].rstrip("\n"))))
                i += 1
            out += [".fi", ".RE"]
        elif line.startswith("# ") and not seen_title:
            flush()
            seen_title = True
        elif line.startswith("# ") or line.startswith("## "):
            flush()
            out.append(".SH " + inline(line.split(" ", 1)[1].upper()))
        elif line.startswith("### "):
            flush()
            out.append(".SS " + inline(line[4:]))
        elif line.startswith("|"):
            flush()
            rows = []
            while i < len(lines) and lines[i].startswith("|"):
                rows.append(table_row(lines[i]))
                i += 1
            i -= 1
            body = [r for r in rows[1:] if not all(set(c) <= set("-: ") for c in r)]
            for r in body:
                out += [".TP", line_safe(inline(r[0])),
                        line_safe(inline(" \u2014 ".join(c for c in r[1:] if c)))]
        elif re.match(r"^\s*- ", line):
            flush()
            item = [line.split("- ", 1)[1]]
            while i + 1 < len(lines) and lines[i + 1].startswith("  ") and lines[i + 1].strip():
                i += 1
                item.append(lines[i].strip())
            out += [".IP \\(bu 2", line_safe(inline(" ".join(item)))]
        elif not line.strip():
            flush()
        else:
            para.append(line.strip())
        i += 1
    flush()
    return "\n".join(out) + "\n"


def main(argv):
    if len(argv) != 6:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    name, section, description, src, dst = argv[1:]
    with open(src, encoding="utf-8") as f:
        text = convert(f.readlines(), name, section, description)
    with open(dst, "w", encoding="utf-8") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
