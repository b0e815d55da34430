"""Blender reads a rig made in Skinlab: run with Blender's Python module
(`pip install bpy`, Blender 5), after `node --test tests/node/rigging.test.mjs`
has written test-output/blender/ (`cargo xtask test` runs it when it finds
such a Python, see xtask):

    python tests/blender/import_rig.py test-output/blender

Each `*.glb` there is imported with Blender's own glTF importer and checked
against the `*.json` beside it, which Skinlab wrote with it:

- one armature, with every bone by name;
- a vertex group for every bone that deforms, on the mesh;
- the clip as an action;
- the skinned meshes, evaluated through the armature modifier at the end
  of the first clip, where Skinlab draws them then (the nearest of
  Skinlab's points to each Blender vertex, within 1e-3 of the figure's
  size).

Prints one line a file and exits 1 on the first mismatch.
"""

import json
import math
import os
import sys

import bpy


def fail(message):
    print(f"Blender: {message}")
    sys.exit(1)


def check(glb, expected):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.import_scene.gltf(filepath=glb)
    armatures = [o for o in bpy.data.objects if o.type == "ARMATURE"]
    # The skinned meshes (the importer adds a shape for the bones' display).
    meshes = [o for o in bpy.data.objects
              if o.type == "MESH" and any(m.type == "ARMATURE" for m in o.modifiers)]
    name = os.path.basename(glb)
    if len(armatures) != 1:
        fail(f"{name}: {len(armatures)} armatures, expected one")
    bones = {b.name for b in armatures[0].data.bones}
    missing = [b for b in expected["bones"] if b not in bones]
    if missing:
        fail(f"{name}: bones missing in Blender: {missing}")
    groups = set()
    for mesh in meshes:
        groups |= {g.name for g in mesh.vertex_groups}
    without = [b for b in expected["deforming"] if b not in groups]
    if without:
        fail(f"{name}: no vertex group for {without}")
    actions = {a.name for a in bpy.data.actions}
    if expected["clips"] and not any(any(c in a for a in actions) for c in expected["clips"]):
        fail(f"{name}: clips {expected['clips']} not among the actions {sorted(actions)}")
    # The end of the first clip, as Blender's importer placed it on frames.
    action = next(a for a in bpy.data.actions if expected["clips"][0] in a.name)
    armature = armatures[0]
    armature.animation_data.action = action
    # The clip's end is rarely a whole frame (the walk's, 1.967 s at 24
    # frames a second, is frame 47.2): set between frames, as Blender's
    # subframes allow.
    end = action.frame_range[1]
    bpy.context.scene.frame_set(int(end), subframe=end - int(end))
    bpy.context.view_layer.update()
    depsgraph = bpy.context.evaluated_depsgraph_get()
    points = []
    for mesh in meshes:
        evaluated = mesh.evaluated_get(depsgraph)
        data = evaluated.to_mesh()
        world = mesh.matrix_world
        # Blender is Z up; glTF (and Skinlab) Y up: (x, y, z) = (x, z, -y).
        for v in data.vertices:
            p = world @ v.co
            points.append((p.x, p.z, -p.y))
        evaluated.to_mesh_clear()
    ours = expected["positions"]
    ours = [ours[k:k + 3] for k in range(0, len(ours), 3)]
    size = max(max(abs(c) for c in p) for p in ours)
    cell = size / 10
    grid = {}
    for p in ours:
        grid.setdefault(tuple(math.floor(c / cell) for c in p), []).append(p)
    worst = 0.0
    for p in points:
        key = tuple(math.floor(c / cell) for c in p)
        near = [q for dx in (-1, 0, 1) for dy in (-1, 0, 1) for dz in (-1, 0, 1)
                for q in grid.get((key[0] + dx, key[1] + dy, key[2] + dz), [])]
        best = min((math.dist(p, q) for q in near), default=math.inf)
        worst = max(worst, best)
    print(f"Blender: {name}: one armature of {len(bones)} bones, {len(groups)} vertex groups, "
          f"actions {sorted(actions)}; {len(points)} vertices, worst {worst:.2e} of size {size:.3f}")
    if worst > 1e-3 * size:
        fail(f"{name}: a vertex {worst} from where Skinlab draws it")


def main():
    folder = sys.argv[1]
    files = sorted(f for f in os.listdir(folder) if f.endswith(".glb"))
    if not files:
        fail(f"no .glb in {folder}")
    for glb in files:
        with open(os.path.join(folder, glb[:-4] + ".json"), encoding="utf-8") as handle:
            check(os.path.join(folder, glb), json.load(handle))


main()
