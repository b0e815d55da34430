"""Makes the FBX files of tests/fbx/ with Blender's own FBX exporter.

Run with Blender's Python module (pip install bpy==4.2.0, Python 3.11):

    python tests/support/fbx-corpus.py

Each file is a glTF sample model of www/models/ (licences in their
SOURCE.md) or a rig built here, exported as Blender exports for game
engines, with the settings a lecturer meets: Y-up and Z-up files, armatures
scaled ×100 and ×0.0254, blend shapes, several takes. The ASCII files are
the binary ones rewritten by tests/support/fbx-ascii.py.
"""

import math
import os
import sys

import bpy

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(ROOT, "tests", "fbx")


def reset():
    bpy.ops.wm.read_factory_settings(use_empty=True)


def export(name, **options):
    path = os.path.join(OUT, name)
    settings = dict(
        filepath=path,
        add_leaf_bones=False,
        bake_anim=True,
        bake_anim_use_all_actions=False,
        bake_anim_use_nla_strips=False,
        embed_textures=False,
        path_mode="AUTO",
    )
    settings.update(options)
    bpy.ops.export_scene.fbx(**settings)
    print("wrote", path, os.path.getsize(path), "bytes")


def import_gltf(name):
    bpy.ops.import_scene.gltf(filepath=os.path.join(ROOT, "www", "models", name, name + ".gltf"))
    # The importer's bone display shapes (an icosphere, kept out of glTF
    # export in its "glTF_not_exported" collection) are not the model.
    hidden = bpy.data.collections.get("glTF_not_exported")
    if hidden is not None:
        for obj in list(hidden.objects):
            bpy.data.objects.remove(obj)
    # The baked takes span the clips, not Blender's default 250 frames.
    ranges = [a.frame_range for a in bpy.data.actions]
    if ranges:
        bpy.context.scene.frame_start = int(min(r[0] for r in ranges))
        bpy.context.scene.frame_end = int(math.ceil(max(r[1] for r in ranges)))


def rig_with_shapes():
    """A bar of 4 × 12 quads on a two-bone armature, with two shape keys
    (one animated) and two actions, each a take of its own."""
    bpy.ops.mesh.primitive_cylinder_add(vertices=12, radius=0.2, depth=2.0, location=(0, 0, 1))
    bar = bpy.context.active_object
    bar.name = "bar"
    bpy.ops.object.mode_set(mode="EDIT")
    bpy.ops.mesh.subdivide(number_cuts=5)
    bpy.ops.object.mode_set(mode="OBJECT")
    bpy.ops.object.armature_add(location=(0, 0, 0))
    arm = bpy.context.active_object
    arm.name = "rig"
    bpy.ops.object.mode_set(mode="EDIT")
    lower = arm.data.edit_bones[0]
    lower.name = "lower"
    lower.head = (0, 0, 0)
    lower.tail = (0, 0, 1)
    upper = arm.data.edit_bones.new("upper")
    upper.head = (0, 0, 1)
    upper.tail = (0, 0, 2)
    upper.parent = lower
    upper.use_connect = True
    bpy.ops.object.mode_set(mode="OBJECT")
    bar.select_set(True)
    arm.select_set(True)
    bpy.context.view_layer.objects.active = arm
    bpy.ops.object.parent_set(type="ARMATURE_AUTO")
    # Shape keys: a bulge and a twist of the top.
    bar.shape_key_add(name="Basis")
    bulge = bar.shape_key_add(name="bulge")
    for v, point in zip(bar.data.vertices, bulge.data):
        z = v.co.z
        point.co.x = v.co.x * (1 + 0.8 * math.exp(-((z - 1.0) ** 2) * 8))
        point.co.y = v.co.y * (1 + 0.8 * math.exp(-((z - 1.0) ** 2) * 8))
    lean = bar.shape_key_add(name="lean")
    for v, point in zip(bar.data.vertices, lean.data):
        point.co.x = v.co.x + 0.3 * v.co.z
    # three.js's FBXLoader leaves a channel's DeformPercent out, so the
    # shapes rest at 0 here; tests/fbx_files.rs checks it is read.
    # Actions: "bend" turns the upper bone, "sway" the lower one; the
    # shape key's action animates the bulge.
    arm.animation_data_create()
    for name, bone, axis in (("bend", "upper", 0), ("sway", "lower", 1)):
        action = bpy.data.actions.new(name)
        action.use_fake_user = True
        arm.animation_data.action = action
        pose_bone = arm.pose.bones[bone]
        pose_bone.rotation_mode = "XYZ"
        for frame, angle in ((1, 0.0), (12, 60.0), (24, -30.0)):
            pose_bone.rotation_euler = (0, 0, 0)
            pose_bone.rotation_euler[axis] = math.radians(angle)
            pose_bone.keyframe_insert("rotation_euler", frame=frame)
    arm.animation_data.action = bpy.data.actions["bend"]
    keys = bar.data.shape_keys
    keys.animation_data_create()
    for frame, value in ((1, 0.0), (12, 1.0), (24, 0.3)):
        keys.key_blocks["bulge"].value = value
        keys.key_blocks["bulge"].keyframe_insert("value", frame=frame)
    bpy.context.scene.frame_start = 1
    bpy.context.scene.frame_end = 24


def main():
    os.makedirs(OUT, exist_ok=True)

    reset()
    import_gltf("RiggedFigure")
    export("riggedfigure-blender.fbx")

    reset()
    import_gltf("Fox")
    export("fox-zup-blender.fbx", axis_up="Z", axis_forward="Y", bake_anim_use_all_actions=True,
           embed_textures=True, path_mode="COPY")

    reset()
    import_gltf("RiggedSimple")
    export("riggedsimple-x100-blender.fbx", global_scale=100.0, apply_unit_scale=False)

    reset()
    import_gltf("RiggedSimple")
    export("riggedsimple-inch-blender.fbx", global_scale=0.0254, apply_scale_options="FBX_SCALE_ALL")

    reset()
    rig_with_shapes()
    export("shapes-takes-blender.fbx", bake_anim_use_all_actions=True)

    reset()
    import_gltf("RiggedFigure")
    for obj in list(bpy.data.objects):
        if obj.type == "MESH":
            bpy.data.objects.remove(obj)
    export("riggedfigure-skeleton-blender.fbx")

    sys.path.insert(0, HERE)
    ascii_module = __import__("fbx-ascii")
    for source, target in (("shapes-takes-blender.fbx", "shapes-takes-ascii.fbx"), ("riggedsimple-x100-blender.fbx", "riggedsimple-x100-ascii.fbx")):
        ascii_module.main(os.path.join(OUT, source), os.path.join(OUT, target))
        print("wrote", target)


if __name__ == "__main__":
    sys.exit(main())
