// A Wavefront OBJ made in the tests: a tube of quads in two groups, with
// a material per group when asked.

/** A standing tube of `rings` rings of `sides` quads, 2 tall, in two groups (lower and upper half). */
export function tubeObj(rings = 8, sides = 10, materials = null) {
  const lines = [];
  for (let r = 0; r <= rings; r++) {
    for (let s = 0; s < sides; s++) {
      const a = (2 * Math.PI * s) / sides;
      lines.push(`v ${(0.2 * Math.cos(a)).toFixed(6)} ${((2 * r) / rings).toFixed(6)} ${(0.2 * Math.sin(a)).toFixed(6)}`);
    }
  }
  const at = (r, s) => r * sides + (s % sides) + 1;
  for (let r = 0; r < rings; r++) {
    if (r === 0) lines.push('g lower', ...(materials ? [`usemtl ${materials[0]}`] : []));
    if (r === rings / 2) lines.push('g upper', ...(materials ? [`usemtl ${materials[1]}`] : []));
    for (let s = 0; s < sides; s++) lines.push(`f ${at(r, s)} ${at(r, s + 1)} ${at(r + 1, s + 1)} ${at(r + 1, s)}`);
  }
  const head = materials ? ['mtllib tube.mtl'] : [];
  return `${[...head, ...lines].join('\n')}\n`;
}
