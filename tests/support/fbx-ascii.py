"""Rewrites a binary FBX 7.x file as ASCII FBX, node for node, as the FBX
SDK writes ASCII: object names as "Class::name", arrays as "*N { a: ... }",
raw bytes as base64. Used to make the ASCII files of tests/fbx/:

    python tests/support/fbx-ascii.py in.fbx out.fbx
"""

import base64
import struct
import sys
import zlib


def read_nodes(data, pos, end, wide):
    nodes = []
    head = 25 if wide else 13
    while pos + head <= end:
        if wide:
            node_end, count, _length = struct.unpack_from("<QQQ", data, pos)
            pos += 24
        else:
            node_end, count, _length = struct.unpack_from("<III", data, pos)
            pos += 12
        name_len = data[pos]
        pos += 1
        if node_end == 0:
            break
        name = data[pos:pos + name_len].decode("utf-8", "replace")
        pos += name_len
        props = []
        for _ in range(count):
            code = chr(data[pos])
            pos += 1
            if code in "YCIFDL":
                fmt = {"Y": "<h", "C": "<B", "I": "<i", "F": "<f", "D": "<d", "L": "<q"}[code]
                (value,) = struct.unpack_from(fmt, data, pos)
                pos += struct.calcsize(fmt)
                props.append((code, value))
            elif code in "SR":
                (length,) = struct.unpack_from("<I", data, pos)
                pos += 4
                props.append((code, data[pos:pos + length]))
                pos += length
            else:
                count_, encoding, stored = struct.unpack_from("<III", data, pos)
                pos += 12
                raw = data[pos:pos + stored]
                pos += stored
                if encoding == 1:
                    raw = zlib.decompress(raw)
                fmt = {"f": "f", "d": "d", "l": "q", "i": "i", "b": "B"}[code]
                props.append((code, list(struct.unpack("<%d%s" % (count_, fmt), raw))))
        children = read_nodes(data, pos, node_end, wide)
        nodes.append((name, props, children))
        pos = node_end
    return nodes


def text(value):
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    if "\x00\x01" in value:
        name, cls = value.split("\x00\x01", 1)
        value = cls + "::" + name
    return '"' + value.replace('"', "&quot;") + '"'


def number(value):
    if isinstance(value, float):
        return repr(value)
    return str(value)


def write(nodes, out, depth=0, parent=None):
    tab = "\t" * depth
    for name, props, children in nodes:
        array = len(props) == 1 and isinstance(props[0][1], list)
        if array:
            values = props[0][1]
            out.append("%s%s: *%d {" % (tab, name, len(values)))
            out.append("%s\ta: %s" % (tab, ",".join(number(v) for v in values)))
            out.append("%s}" % tab)
            continue
        parts = []
        for code, value in props:
            if code == "S":
                parts.append(text(value))
            elif code == "R":
                parts.append('"' + base64.b64encode(value).decode() + '"')
            elif code == "C":
                parts.append("T" if value else "F")
            else:
                parts.append(number(value))
        # As the FBX SDK writes: strings after ", ", numbers after ",".
        joined = ""
        for k, (part, (code, _)) in enumerate(zip(parts, props)):
            if k > 0:
                joined += ", " if code in "SR" else ","
            joined += part
        line = "%s%s: %s" % (tab, name, joined)
        if name == "Content" and props and props[0][0] == "R":
            line = "%s%s: , %s" % (tab, name, parts[0])
        # Objects are blocks even when empty, as the FBX SDK writes them.
        if children or not props or parent == "Objects":
            out.append(line.rstrip() + " {")
            write(children, out, depth + 1, name)
            out.append("%s}" % tab)
        else:
            out.append(line)


def main(source, target):
    data = open(source, "rb").read()
    assert data.startswith(b"Kaydara FBX Binary"), "not a binary FBX file"
    (version,) = struct.unpack_from("<I", data, 23)
    nodes = read_nodes(data, 27, len(data), version >= 7500)
    out = [
        "; FBX %d.%d.0 project file" % (version // 1000, version % 1000 // 100),
        "; Rewritten from %s as ASCII by tests/support/fbx-ascii.py" % source.split("/")[-1],
        "; ----------------------------------------------------",
        "",
    ]
    # The binary header's top-level values (FileId, CreationTime, Creator)
    # are not written in ASCII files: the header extension holds them.
    write([n for n in nodes if n[2]], out)
    open(target, "w").write("\n".join(out) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
