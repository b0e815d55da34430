"""Writes the hostile inputs tests/fuzz_regressions.rs replays: files shaped
like those the fuzzer and tests/hostile_files.rs make, one folder per fuzz
target (scene_json, gltf, glb, roundtrip), from the shipped SimpleSkin model.
Run once; the files are committed. Usage: python3 tests/support/hostile-inputs.py
"""
import base64
import copy
import json
import pathlib
import struct

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUT = ROOT / "tests/fuzz_regressions"
BASE = json.loads((ROOT / "www/models/SimpleSkin/SimpleSkin.gltf").read_text())


def write(target, name, data):
    path = OUT / target / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data if isinstance(data, bytes) else data.encode())


def gltf(edit):
    doc = copy.deepcopy(BASE)
    edit(doc)
    return json.dumps(doc)


def glb(doc, bin_chunk=b"", lie=None):
    """A .glb of `doc` (its data URIs moved into one BIN chunk when `bin_chunk` is None)."""
    text = json.dumps(doc).encode()
    text += b" " * (-len(text) % 4)
    body = struct.pack("<II", len(text), 0x4E4F534A) + text
    if bin_chunk:
        bin_chunk += b"\0" * (-len(bin_chunk) % 4)
        body += struct.pack("<II", len(bin_chunk), 0x004E4942) + bin_chunk
    header = struct.pack("<III", 0x46546C67, 2, 12 + len(body))
    data = header + body
    if lie:
        data = lie(bytearray(data))
    return bytes(data)


def embedded_as_glb(doc):
    """`doc` with its data-URI buffers joined into one BIN chunk."""
    doc = copy.deepcopy(doc)
    blob = b""
    offsets = []
    for buffer in doc["buffers"]:
        offsets.append(len(blob))
        data = base64.b64decode(buffer["uri"].split(",", 1)[1])
        blob += data + b"\0" * (-len(data) % 4)
    for view in doc["bufferViews"]:
        view["byteOffset"] = view.get("byteOffset", 0) + offsets[view["buffer"]]
        view["buffer"] = 0
    doc["buffers"] = [{"byteLength": len(blob)}]
    return doc, blob


# scene JSON
two_bone = {
    "bones": [
        {"name": "a", "origin": [0, 0, 0], "orientation": [0, 0, 0, 1], "length": 2},
        {"name": "b", "parent": 0, "origin": [0, 0, 0], "orientation": [0, 0, 0, 1], "length": 2},
    ],
    "mesh": {"positions": [0, 0, 0, 1, 0, 0, 0, 1, 0], "indices": [0, 1, 2]},
    "influences": [[[0, 1]], [[1, 1]], [[1, 0.5], [0, 0.5]]],
}
write("scene_json", "truncated.json", json.dumps(two_bone)[:97])
write("scene_json", "unknown-parent.json", json.dumps({**two_bone, "bones": [two_bone["bones"][0], {**two_bone["bones"][1], "parent": 7}]}))
write("scene_json", "overflowing-number.json", json.dumps(two_bone).replace('"length": 2}', '"length": 1e999}', 1))
write("scene_json", "bone-out-of-range.json", json.dumps({**two_bone, "influences": [[[9999, 1]], [[1, 1]], [[1, 1]]]}))
write("scene_json", "index-past-the-mesh.json", json.dumps({**two_bone, "mesh": {"positions": [0, 0, 0, 1, 0, 0, 0, 1, 0], "indices": [0, 1, 4000000000]}}))
write("scene_json", "overflowing-pose.json", json.dumps({**two_bone, "pose": [{"translation": [3e38, 0, 0]}, {"translation": [3e38, 0, 0]}]}))
write("scene_json", "deeply-nested.json", "[" * 10000 + "]" * 10000)
write("scene_json", "zero-quaternion.json", json.dumps({**two_bone, "pose": [{"rotation": [0, 0, 0, 0]}]}))

# .gltf
write("gltf", "accessor-count-2-to-the-31.gltf", gltf(lambda d: d["accessors"][0].update(count=2**31)))
write("gltf", "view-past-its-buffer.gltf", gltf(lambda d: d["bufferViews"][0].update(byteOffset=1 << 30)))
write("gltf", "node-cycle.gltf", gltf(lambda d: d["nodes"][2].update(children=[1])))
write("gltf", "bad-base64.gltf", gltf(lambda d: d["buffers"][0].update(uri="data:application/gltf-buffer;base64,@@@@")))
write("gltf", "joint-past-the-nodes.gltf", gltf(lambda d: d["skins"][0].update(joints=[1, 99999])))
write("gltf", "truncated.gltf", json.dumps(BASE)[:400])
write("gltf", "negative-count.gltf", gltf(lambda d: d["accessors"][0].update(count=-1)))

# .glb
doc, blob = embedded_as_glb(BASE)
valid = glb(doc, blob)
write("glb", "bad-magic.glb", b"glTX" + valid[4:])
write("glb", "length-past-the-file.glb", glb(doc, blob, lambda d: d[:8] + struct.pack("<I", len(d) + 4096) + d[12:]))
write("glb", "json-chunk-length-lies.glb", glb(doc, blob, lambda d: d[:12] + struct.pack("<I", 0x7FFFFFF0) + d[16:]))
write("glb", "no-bin-chunk.glb", glb(doc))
write("glb", "json-chunk-not-json.glb", glb(doc, blob, lambda d: d[:20] + b"{" * (len(d) - 20 - len(blob) - (-len(blob) % 4) - 8) + d[len(d) - len(blob) - (-len(blob) % 4) - 8:]))
write("glb", "header-only.glb", valid[:12])

# round trip: valid files, each must save and reload to the same scene
write("roundtrip", "simple-skin.glb", valid)
rigged, rigged_blob = embedded_as_glb(json.loads((ROOT / "www/models/RiggedSimple/RiggedSimple.gltf").read_text()))
write("roundtrip", "rigged-simple.glb", glb(rigged, rigged_blob))
