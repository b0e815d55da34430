// The lecture as guided steps (the lecture notes: sources.html). Each step
// sets up a scene and a view, says what to do and what to notice (English,
// German and Chinese, the Chinese kept in labels/lessons-zh.js), and checks
// that the student did it. `check(s, scene)` reads
// the running page `s` (its API, as window.skinlab) and the step's scene document as it
// started (parsed once, for the rest positions), and returns true once done;
// `prepare(s)`, when given, sets up what the step starts from (`readers:
// true` where it calls a tool of the file readers' module, such as
// automatic weights, which the step then waits for). `panel` names
// the mode whose panel and view layers the step shows under its card (the
// matrices, the IK ring and report, the GPU table, the timeline), so every
// control and figure the text names is on screen; `shows` the figures the
// text names, scrolled into view; `actions` are buttons; `figures(s)` the
// numbers a notice's {placeholders} stand for, measured when it shows.

import { formatNumber } from './i18n.js';
import { LESSONS_ZH } from './labels/lessons-zh.js';

const DEG = Math.PI / 180;

/**
 * How far the skin leaves the rest surface under each method
 * (lab.surfaceDeparture), for a notice's {lbsIn}, {dqsOut}, {corOut}, {corIn}.
 */
function departures(s) {
  const [lbs, dqs, cor] = ['lbs', 'dqs', 'cor'].map((method) => s.lab.surfaceDeparture(method));
  const num = (value, digits) => formatNumber(s.language(), value, digits);
  return {
    lbsIn: num(lbs.inward, 2), dqsOut: num(dqs.outward, 2), corOut: num(cor.outward, 2), corIn: num(cor.inward, 2),
  };
}

/** A bone's turn from its rest orientation, radians. */
export function turnOf(s, bone) {
  const [, , , w] = s.lab.bonePose(bone).rotation;
  return 2 * Math.acos(Math.min(1, Math.abs(w)));
}

/**
 * Whether bone `bone` is turned at least `degrees` from rest, give or take
 * 0.01°: nine presses of 5° on the keys (44.999998° in single precision)
 * reach 45°.
 */
export const turned = (s, bone, degrees) => turnOf(s, bone) >= (degrees - 0.01) * DEG;

/** The fork vertex of the Y-junction: on the axis, above the stem. */
function forkVertex(scene) {
  const { positions } = scene.mesh;
  for (let v = 0; v < positions.length / 3; v++) {
    if (Math.abs(positions[3 * v]) < 1e-6 && positions[3 * v + 1] > 2) return v;
  }
  return -1;
}

/** Vertices of the index finger (the right one) above the palm. */
function indexFinger(scene) {
  const { positions } = scene.mesh;
  const vertices = [];
  for (let v = 0; v < positions.length / 3; v++) {
    if (positions[3 * v] > 0.05 && positions[3 * v + 1] > 1.01) vertices.push(v);
  }
  return vertices;
}

const weightOf = (s, vertex, bone) => s.lab.influences(vertex).find(([b]) => b === bone)?.[1] ?? 0;

/**
 * The mannequin's markers for the humanoid template, model space: the
 * chin, the groin and each side's elbow, wrist and knee (its left at +X).
 */
const MANNEQUIN_MARKERS = {
  chin: [0, 1.55, 0], groin: [0, 0.92, 0],
  leftElbow: [0.48, 1.42, 0], leftWrist: [0.78, 1.42, 0], leftKnee: [0.1, 0.48, 0],
  rightElbow: [-0.48, 1.42, 0], rightWrist: [-0.78, 1.42, 0], rightKnee: [-0.1, 0.48, 0],
};

/**
 * A step's start: the mannequin with the humanoid fitted to its markers and,
 * unless `method` is null, bound by that automatic method.
 */
const rigged = (method) => (s) => {
  s.lab.fitSkeleton('humanoid', MANNEQUIN_MARKERS);
  if (method) s.lab.autoWeights(method);
};

/**
 * The mannequin's left forearm: the vertices of its left arm between the
 * elbow and the wrist markers, clear of both joints.
 */
function leftForearm(scene) {
  const { positions } = scene.mesh;
  const [elbow, wrist] = [MANNEQUIN_MARKERS.leftElbow[0], MANNEQUIN_MARKERS.leftWrist[0]];
  const vertices = [];
  for (let v = 0; v < positions.length / 3; v++) {
    const x = positions[3 * v];
    if (x > elbow + 0.02 && x < wrist - 0.02 && positions[3 * v + 1] > 1.3) vertices.push(v);
  }
  return vertices;
}

/**
 * A wrong region to fix: the mannequin bound by voxels, then its left
 * forearm's skin given wholly to the upper arm (as a careless binding or a
 * stray stroke leaves it), and the forearm turned up 40°, so that its skin
 * stays behind, torn from the hand.
 */
function wrongForearm(s) {
  rigged('voxel')(s);
  const names = s.lab.boneNames();
  const [arm, forearm] = ['LeftArm', 'LeftForeArm'].map((name) => names.indexOf(name));
  for (const vertex of leftForearm(JSON.parse(s.lab.sceneJson()))) s.lab.setInfluences(vertex, [[arm, 1]]);
  s.lab.setBonePose(forearm, { rotation: [0, 0, Math.sin(20 * DEG), Math.cos(20 * DEG)] });
}

/**
 * Whether the side of the left forearm facing the viewer has its largest
 * weight on LeftForeArm: at least two in five of its vertices (the brush
 * paints the faces turned to it, about half the tube).
 */
function forearmFixed(s, scene) {
  const forearm = s.lab.boneNames().indexOf('LeftForeArm');
  const largest = largestInfluences(s);
  const vertices = leftForearm(scene);
  return vertices.filter((v) => largest[v][0] === forearm).length >= 0.4 * vertices.length;
}

/**
 * Each vertex's largest influence `[bone, weight]` (`[-1, 0]` for none),
 * from the lab's four slots a vertex, read in one piece: the checks run
 * every frame, and a call a vertex would cross into the core thousands of
 * times.
 */
function largestInfluences(s) {
  const { bones, weights } = s.lab.influenceArrays();
  const largest = [];
  for (let k = 0; k < weights.length; k += 4) {
    let best = [-1, 0];
    for (let slot = k; slot < k + 4; slot++) if (weights[slot] > best[1]) best = [bones[slot], weights[slot]];
    largest.push(best);
  }
  return largest;
}

/** Whether every vertex has some weight. */
const everyVertexWeighted = (s) => largestInfluences(s).every(([bone]) => bone >= 0);

/** Whether some vertex's largest weight differs from the step's start by more than 0.01. */
function weightsChanged(s, scene) {
  const now = largestInfluences(s);
  return scene.influences.some((pairs, v) => {
    const [bone, weight] = pairs.reduce((best, [b, w]) => (w > best[1] ? [b, w] : best), [-1, 0]);
    return bone !== now[v][0] || Math.abs(weight - now[v][1]) > 0.01;
  });
}

/** Frames and bones visible, the skin seen through. */
const FRAMES = { ownFrames: true, childFrames: true, bones: true };

/** The fingers example's index finger (bone 2) bent by 40°, away from the middle finger. */
const BENT_INDEX = [[2, [0, 0, -Math.sin(20 * DEG), Math.cos(20 * DEG)]]];

export const LESSONS = [
  {
    name: 'bones',
    title: { en: 'Bones', de: 'Bones' },
    steps: [
      {
        example: 'two-bone',
        overlays: FRAMES,
        do: { en: 'A bone has an origin, an orientation and a length. Click bone 2 (the right half) to select it (keys on the view: ] picks the next bone).',
          de: 'Ein Bone hat einen Ursprung, eine Orientierung und eine Länge. Bone 2 (die rechte Hälfte) anklicken, um ihn auszuwählen (Tasten auf der Ansicht: ] wählt den nächsten Bone).' },
        notice: { en: 'The panel shows its rest frame R₂: where its own frame sits in the model.',
          de: 'Das Panel zeigt sein Ruhesystem R₂: wo sein eigenes Koordinatensystem im Modell liegt.' },
        check: (s) => s.selectedBone() === 1,

        panel: 'skin',
      },
      {
        example: 'two-bone',
        overlays: FRAMES,
        do: { en: 'The short, thick axes (green) are bone 1’s own frame: it turns about the origin. The long, thin axes (red) are the frame it hands to its children, moved its length along +Y. Turn bone 1 by at least 20° (keys on the view: ] picks it, ← turns it).',
          de: 'Die kurzen, dicken Achsen (grün) sind das eigene System von Bone 1: es dreht sich um den Ursprung. Die langen, dünnen Achsen (rot) sind das System, das er an seine Kinder weitergibt, um seine Länge entlang +Y verschoben. Bone 1 um mindestens 20° drehen (Tasten auf der Ansicht: ] wählt ihn, ← dreht ihn).' },
        notice: { en: 'Bone 2 starts at bone 1’s red frame, so it follows: a child lives in the frame its parent hands on.',
          de: 'Bone 2 beginnt im roten System von Bone 1 und folgt deshalb: ein Kind lebt im System, das sein Vater weitergibt.' },
        check: (s) => turned(s, 0, 20),
      },
      {
        example: 'two-bone',
        overlays: FRAMES,
        do: { en: 'Bone 1 is the root: it has no parent. Shift-drag a bone to move the root, and the whole skeleton with it (keys on the view: ] picks a bone, G, then the arrows move the root; Enter ends).',
          de: 'Bone 1 ist die Wurzel: er hat keinen Vater. Einen Bone mit gedrückter Umschalttaste ziehen: das verschiebt die Wurzel und mit ihr das ganze Skelett (Tasten auf der Ansicht: ] wählt einen Bone, G, dann verschieben die Pfeiltasten die Wurzel; Enter beendet).' },
        notice: { en: 'Moving the root moves every bone below it; nothing turns.',
          de: 'Die Wurzel zu verschieben bewegt jeden Bone darunter; nichts dreht sich.' },
        check: (s) => Math.hypot(...s.lab.bonePose(0).translation) > 0.2,
      },
    ],
  },
  {
    name: 'two-bones',
    title: { en: 'Two bones', de: 'Zwei Bones' },
    steps: [
      {
        example: 'two-bone',
        do: { en: 'Turn bone 2 by at least 45°: drag it (keys on the view: ] picks it, ← or → turns it).',
          de: 'Bone 2 um mindestens 45° drehen: ihn ziehen (Tasten auf der Ansicht: ] wählt ihn, ← oder → dreht ihn).' },
        notice: { en: 'Bone 1’s vertices do not move: each vertex belongs to one bone, so the skin creases at the joint.',
          de: 'Die Vertices von Bone 1 bewegen sich nicht: jeder Vertex gehört genau einem Bone, daher knickt die Haut am Gelenk.' },
        check: (s) => turned(s, 1, 45),
      },
      {
        example: 'two-bone-smooth',
        do: { en: 'Here the vertices near the joint belong to both bones. Turn bone 2 by at least 45° again (keys on the view: ] picks it, ← or → turns it).',
          de: 'Hier gehören die Vertices am Gelenk beiden Bones. Bone 2 wieder um mindestens 45° drehen (Tasten auf der Ansicht: ] wählt ihn, ← oder → dreht ihn).' },
        notice: { en: 'The strip bends smoothly: a vertex weighted to both follows each bone part of the way.',
          de: 'Der Streifen biegt sich weich: ein Vertex mit Gewicht bei beiden folgt jedem Bone ein Stück weit.' },
        check: (s) => turned(s, 1, 45),
      },
    ],
  },
  {
    name: 'y-junction',
    title: { en: 'The Y-junction', de: 'Der Y-Aufbau' },
    steps: [
      {
        example: 'y-junction-unweighted',
        do: { en: 'The fork vertex belongs to the left branch only. Bend the right branch by at least 30° (keys on the view: ] picks it, ← or → bends it).',
          de: 'Der Scheitelpunkt gehört nur dem linken Schenkel. Den rechten Schenkel um mindestens 30° biegen (Tasten auf der Ansicht: ] wählt ihn, ← oder → biegt ihn).' },
        notice: { en: 'The skin tears at the fork: the right branch’s vertices leave it behind.',
          de: 'Die Haut reißt am Scheitelpunkt auf: die Vertices des rechten Schenkels lassen ihn zurück.' },
        check: (s) => turned(s, 2, 30),
      },
      {
        example: 'y-junction-unweighted',
        pose: [[2, [0, 0, -Math.sin(Math.PI / 8), Math.cos(Math.PI / 8)]]],
        paint: { bone: 2, brush: { radius: 20, strength: 1, falloff: 'smooth', mode: 'set', value: 0.5 } },
        do: { en: 'Cure it: the brush paints the right branch’s weight. Paint over the fork vertex so it belongs to both branches (keys on the view: the arrows move the brush, Enter paints).',
          de: 'Die Abhilfe: der Pinsel malt das Gewicht des rechten Schenkels. Über den Scheitelpunkt malen, sodass er beiden Schenkeln gehört (Tasten auf der Ansicht: die Pfeiltasten bewegen den Pinsel, Enter malt).' },
        notice: { en: 'With the fork weighted half and half it follows both branches halfway, and the tear closes.',
          de: 'Mit halbem Gewicht bei jedem Schenkel folgt der Scheitelpunkt beiden zur Hälfte, und der Riss schließt sich.' },
        check: (s, scene) => {
          const fork = forkVertex(scene);
          return fork >= 0 && weightOf(s, fork, 1) >= 0.25 && weightOf(s, fork, 2) >= 0.25;
        },
      },
    ],
  },
  {
    name: 'three-steps',
    title: { en: 'Three steps', de: 'Drei Schritte' },
    steps: [
      {
        example: 'two-bone',
        pose: [[1, [0, 0, Math.sin(Math.PI / 6), Math.cos(Math.PI / 6)]]],
        shows: ['#vertex-panel'],
        do: { en: 'Bone 2 is turned by 60°. Click a vertex on the right half (bone 2’s) (keys on the view: V and Shift+V step through the vertices).',
          de: 'Bone 2 ist um 60° gedreht. Einen Vertex auf der rechten Hälfte (von Bone 2) anklicken (Tasten auf der Ansicht: V und Umschalt+V gehen die Vertices durch).' },
        notice: { en: 'The panel shows the three steps: Q = R⁻¹P into the bone’s rest frame, T = A·Q animated there, Z back out through the re-posed parent.',
          de: 'Das Panel zeigt die drei Schritte: Q = R⁻¹P ins Ruhesystem des Bones, T = A·Q dort animiert, Z über den neu posierten Vater zurück.' },
        check: (s) => s.selectedVertex() !== null && s.lab.influences(s.selectedVertex()).some(([bone]) => bone === 1),
      },
      {
        example: 'two-bone',
        pose: [[1, [0, 0, Math.sin(Math.PI / 6), Math.cos(Math.PI / 6)]]],
        do: { en: 'Select bone 2 (keys on the view: ] picks the next bone) and read its matrices: R′ already contains the animation A.',
          de: 'Bone 2 auswählen (Tasten auf der Ansicht: ] wählt den nächsten Bone) und seine Matrizen lesen: R′ enthält die Animation A schon.' },
        notice: { en: 'The summary in “Skinning Teil 1”, Z = R′·A·R⁻¹·P, would apply the pose twice. Correct is Z = M·P with M = R′·R⁻¹.',
          de: 'Die Zusammenfassung in „Skinning Teil 1“, Z = R′·A·R⁻¹·P, würde die Pose doppelt anwenden. Richtig ist Z = M·P mit M = R′·R⁻¹.' },
        check: (s) => s.selectedBone() === 1,
        panel: 'skin',
        shows: ['#bone-panel'],
      },
    ],
  },
  {
    name: 'weights',
    title: { en: 'Weights', de: 'Gewichte' },
    steps: [
      {
        example: 'fingers',
        pose: BENT_INDEX,
        actions: ['nearest'],
        do: { en: 'Each vertex is the weighted mean of what its bones do. Press “Nearest bone”: every vertex goes to the bone closest to it.',
          de: 'Jeder Vertex ist das gewichtete Mittel dessen, was seine Bones tun. „Nächster Bone“ drücken: jeder Vertex geht an den Bone, der ihm am nächsten ist.' },
        notice: { en: 'The index finger is bent. Its tip is nearer the middle finger’s bone, so nearest-bone weights give it to the wrong finger: the tip tears off and stays behind with the middle finger.',
          de: 'Der Zeigefinger ist gebeugt. Seine Spitze liegt näher am Bone des Mittelfingers; „nächster Bone“ gibt sie dem falschen Finger: die Spitze reißt ab und bleibt beim Mittelfinger zurück.' },
        check: (s, scene) => indexFinger(scene).filter((v) => weightOf(s, v, 1) > 0.5).length >= 2,
      },
      {
        example: 'fingers',
        pose: BENT_INDEX,
        // Start from the nearest-bone weights the previous step made.
        prepare: (s) => s.lab.autoWeights('nearest'),
        readers: true,
        actions: ['heat'],
        do: { en: 'Press “Bone heat”: weights spread like heat over the mesh from each bone.',
          de: '„Bone Heat“ drücken: die Gewichte breiten sich wie Wärme über das Netz aus, von jedem Bone aus.' },
        notice: { en: 'Heat does not jump the gap between the fingers: the index fingertip stays with its own finger and bends with it. Every method weights only bones that deform: in a file from another tool, end bones, IK controllers and a root at the floor take no skin (the “deforms” box in the Bones list).',
          de: 'Wärme springt nicht über die Lücke zwischen den Fingern: die Spitze des Zeigefingers bleibt an ihrem Finger und beugt sich mit ihm. Jede Methode gewichtet nur Bones, die verformen: in einer Datei aus einem anderen Programm bekommen End-Bones, IK-Steuerungen und eine Wurzel am Boden keine Haut (das Kästchen „verformt“ in der Bone-Liste).' },
        check: (s, scene) => {
          const finger = indexFinger(scene);
          return finger.length > 0 && finger.every((v) => weightOf(s, v, 1) < 0.1) && finger.some((v) => weightOf(s, v, 2) > 0.5);
        },
      },
    ],
  },
  {
    name: 'lbs-dqs',
    title: { en: 'LBS, DQS and CoR', de: 'LBS, DQS und CoR' },
    steps: [
      {
        example: 'tube',
        actions: ['twist'],
        do: { en: 'Twist bone 2 by 180° (the button).',
          de: 'Bone 2 um 180° verdrehen (der Knopf).' },
        notice: { en: 'Linear blending averages the matrices: halfway through a half turn they cancel, and the joint collapses into a “candy wrapper”.',
          de: 'Lineares Blending mittelt die Matrizen: auf halbem Weg einer halben Drehung heben sie sich auf, und das Gelenk fällt zum „Bonbonpapier“ zusammen.' },
        check: (s) => turned(s, 1, 170),
      },
      {
        example: 'tube',
        pose: [[1, [0, 1, 0, 0]]],
        do: { en: 'Switch to DQS in the toolbar, or show both side by side.',
          de: 'In der Werkzeugleiste auf DQS umschalten oder beide nebeneinander zeigen.' },
        notice: { en: 'Dual quaternions blend the rigid motions themselves: the joint keeps its volume.',
          de: 'Duale Quaternionen blenden die starren Bewegungen selbst: das Gelenk behält sein Volumen.' },
        check: (s) => s.method() === 'dqs' || s.viewer.compare(),
      },
      {
        example: 'tube',
        actions: ['bend'],
        do: { en: 'Bend the joint by 90° (the button) and look at the elbow with DQS.',
          de: 'Das Gelenk um 90° beugen (der Knopf) und den Ellbogen mit DQS ansehen.' },
        notice: { en: 'Blending rigid motions keeps the volume but not the shape: the outside of the bend bulges, {dqsOut} beyond the rest surface with DQS, while LBS sinks {lbsIn} inside the bend.',
          de: 'Starre Bewegungen zu blenden hält das Volumen, aber nicht die Form: die Außenseite der Beuge beult aus, mit DQS {dqsOut} über die Ruhefläche hinaus, während LBS innen {lbsIn} einsinkt.' },
        // The numbers in the notice, as the core measures them now.
        figures: departures,
        check: (s) => turned(s, 1, 80) && (s.method() === 'dqs' || (s.viewer.compare() && s.comparePair().includes('dqs'))),
      },
      {
        example: 'tube',
        pose: [[1, [0, 0, Math.SQRT1_2, Math.SQRT1_2]]],
        do: { en: 'Switch to CoR in the toolbar (or compare it side by side).',
          de: 'In der Werkzeugleiste auf CoR umschalten (oder nebeneinander vergleichen).' },
        notice: { en: 'Centres of rotation turn each vertex rigidly about a point chosen from the triangles weighted like it: at this bend the bulge is {corOut} (DQS {dqsOut}) and the collapse {corIn} (LBS {lbsIn}); at a half twist CoR keeps the volume as DQS does (the Skin mode’s twist lab).',
          de: 'Drehzentren drehen jeden Vertex starr um einen Punkt, gewählt aus den Dreiecken mit ähnlichen Gewichten: bei dieser Beuge beult die Haut {corOut} aus (DQS {dqsOut}) und sinkt {corIn} ein (LBS {lbsIn}); bei einer halben Verdrehung hält CoR das Volumen wie DQS (das Verdrehungslabor im Modus Haut).' },
        figures: departures,
        check: (s) => s.method() === 'cor' || (s.viewer.compare() && s.comparePair().includes('cor')),
      },
    ],
  },
  {
    name: 'keyframes',
    title: { en: 'Keyframes', de: 'Keyframes' },
    steps: [
      {
        example: 'walk',
        panel: 'animate',
        shows: ['#anim-play'],
        do: { en: 'A walk cycle: five keys per joint in one second. Press Play in the panel (or Space).',
          de: 'Ein Gehzyklus: fünf Keys je Gelenk in einer Sekunde. Im Panel „Abspielen“ drücken (oder die Leertaste).' },
        notice: { en: 'Only the keys are stored; every frame between them is interpolated (the animation talk): rotations by slerp, the rest linearly or by a spline.',
          de: 'Gespeichert sind nur die Keys; jedes Bild dazwischen wird interpoliert (der Animationsvortrag): Rotationen per Slerp, der Rest linear oder per Spline.' },
        check: (s) => s.animPlaying() && s.animTime() > 0.3,
      },
      {
        example: 'walk',
        panel: 'animate',
        actions: ['kneeStep'],
        do: { en: 'Set the left knee to Step, and play.',
          de: 'Das linke Knie auf Stufe stellen und abspielen.' },
        notice: { en: 'Step holds each key until the next: the knee jumps from pose to pose, like an animator’s key drawings before the in-betweens.',
          de: 'Stufe hält jeden Key bis zum nächsten: das Knie springt von Pose zu Pose, wie die Schlüsselzeichnungen vor den Zwischenphasen.' },
        check: (s) => s.lab.keyInterpolation(0, 2) === 'STEP',
      },
      {
        example: 'walk',
        panel: 'animate',
        actions: ['kneeLinear', 'kneeSmooth'],
        // The walk comes smooth: the step starts from the previous one's Step.
        prepare: (s) => s.setBoneInterpolation(2, 'step'),
        do: { en: 'Now Linear, then Smooth. (Select the knee: the panel draws its angle over time for each.)',
          de: 'Jetzt Linear, dann Glatt. (Das Knie wählen: das Panel zeichnet dazu seinen Winkel über der Zeit.)' },
        notice: { en: 'Linear turns at constant speed and jerks at every key. Smooth is glTF’s cubic spline with Catmull-Rom tangents mₖ = (vₖ₊₁ − vₖ₋₁) / (tₖ₊₁ − tₖ₋₁): the speed changes without jumps.',
          de: 'Linear dreht mit konstanter Geschwindigkeit und ruckt an jedem Key. Glatt ist der kubische Spline von glTF mit Catmull-Rom-Tangenten mₖ = (vₖ₊₁ − vₖ₋₁) / (tₖ₊₁ − tₖ₋₁): die Geschwindigkeit ändert sich ohne Sprünge.' },
        check: (s) => s.lab.keyInterpolation(0, 2) === 'CUBICSPLINE',
      },
      {
        example: 'two-bone',
        panel: 'animate',
        shows: ['#timeline'],
        actions: ['keyBone2', 'later'],
        do: { en: 'Your own clip: key bone 2, move the playhead by 1 s, turn bone 2 by at least 45°, and key it again (keys: ] picks bone 2, K keys it, ←/→ turn it; the time slider moves the playhead).',
          de: 'Ein eigener Clip: für Bone 2 einen Key setzen, den Zeitpunkt um 1 s verschieben, Bone 2 um mindestens 45° drehen und wieder einen Key setzen (Tasten: ] wählt Bone 2, K setzt den Key, ←/→ drehen; der Zeitschieber verschiebt den Zeitpunkt).' },
        notice: { en: 'Two keys make a clip; Play (or Space) runs it. The timeline shows the keys, and K sets one for the selected bone.',
          de: 'Zwei Keys ergeben einen Clip; „Abspielen“ (oder die Leertaste) lässt ihn laufen. Die Zeitleiste zeigt die Keys, und K setzt einen für den gewählten Bone.' },
        check: (s) => s.lab.animationNames().length > 0 && s.lab.keyTimes(0, 1).length >= 2 && turned(s, 1, 45),
      },
    ],
  },
  {
    name: 'paths',
    title: { en: 'Paths and arc length', de: 'Pfade und Bogenlänge' },
    steps: [
      {
        example: 'path',
        panel: 'animate',
        shows: ['#anim-play'],
        do: { en: 'The fish rides a cubic Bézier path. Press Play in the panel (or Space).',
          de: 'Der Fisch folgt einem kubischen Bézier-Pfad. Im Panel „Abspielen“ drücken (oder die Leertaste).' },
        notice: { en: 'It moves at constant speed: the squares, one per equal time step, are evenly spaced along the curve.',
          de: 'Er bewegt sich mit konstanter Geschwindigkeit: die Quadrate, eines je gleichem Zeitschritt, liegen gleichmäßig auf der Kurve.' },
        check: (s) => s.animPlaying() && s.animTime() > 0.5,
      },
      {
        example: 'path',
        panel: 'animate',
        actions: ['naive'],
        do: { en: 'Set the timing to naive: the curve parameter u grows in proportion to time.',
          de: 'Den Zeitverlauf auf naiv stellen: der Kurvenparameter u wächst proportional zur Zeit.' },
        notice: { en: 'The squares bunch up where the control points crowd and spread where they are far apart: the speed is |B′(u)|, not constant. This is the mistake the animation talk warns about.',
          de: 'Die Quadrate drängen sich, wo die Kontrollpunkte eng liegen, und streuen, wo sie weit auseinander sind: die Geschwindigkeit ist |B′(u)|, nicht konstant. Das ist der Fehler, vor dem der Animationsvortrag warnt.' },
        check: (s) => s.lab.path(0).timing === 'naive',
      },
      {
        example: 'path',
        panel: 'animate',
        shows: ['#path-error'],
        actions: ['coarse', 'fine'],
        do: { en: 'The cure, “Annäherung durch Aufsummierung”: sum short chords into a table of lengths. Shrink the table to 4 entries.',
          de: 'Die Abhilfe, „Annäherung durch Aufsummierung“: kurze Sehnen zu einer Tabelle von Längen aufsummieren. Die Tabelle auf 4 Einträge verkleinern.' },
        notice: { en: 'Four chords cut the corners: the panel shows the length several percent short, and the squares are uneven again. With 512 entries the error is far below a pixel.',
          de: 'Vier Sehnen schneiden die Kurven ab: das Panel zeigt die Länge um einige Prozent zu kurz, und die Quadrate sind wieder ungleich. Mit 512 Einträgen liegt der Fehler weit unter einem Pixel.' },
        check: (s) => s.pathEntries() === 4,
      },
    ],
  },
  {
    name: 'speed-curve',
    title: { en: 'The characteristic curve', de: 'Die Kennlinie' },
    steps: [
      {
        example: 'path',
        panel: 'animate',
        shows: ['#speed-graph'],
        prepare: (s) => { s.lab.setPathTiming(0, 'curve'); s.setAnimTime(0); },
        do: { en: 'The fish’s timing is now a curve: the distance covered over time, drawn under the timing menu. Drag its second point up (or Tab to it and press ↑), so the fish dashes off at once.',
          de: 'Der Zeitverlauf des Fischs ist jetzt eine Kurve: die zurückgelegte Strecke über der Zeit, unter dem Menü des Zeitverlaufs gezeichnet. Ihren zweiten Punkt nach oben ziehen (oder ihn mit Tab erreichen und ↑ drücken), damit der Fisch sofort losschießt.' },
        notice: { en: 'Where the curve is steep the squares (equal time steps) spread out; where it is flat they crowd: the speed is the curve’s slope. The path’s shape did not change. The curve cannot bend back, so the fish never reverses.',
          de: 'Wo die Kurve steil ist, streuen die Quadrate (gleiche Zeitschritte); wo sie flach ist, drängen sie sich: das Tempo ist die Steigung der Kurve. Die Form des Pfads hat sich nicht geändert. Die Kurve kann nicht zurückbiegen, also kehrt der Fisch nie um.' },
        check: (s) => (s.lab.pathSpeed(0)?.distances[1] ?? 0) > 0.25,
      },
    ],
  },
  {
    name: 'pursuit',
    title: { en: 'Pursuit', de: 'Verfolgung' },
    steps: [
      {
        example: 'path',
        panel: 'animate',
        opens: ['#pursuit-box'],
        shows: ['#pursuit-plot'],
        prepare: (s) => { s.setPursuitCar(0.4); s.setAnimTime(3); },
        do: { en: 'Two grey points run along the path, a slow (light) and a fast (dark) one, each chased by a car steering straight at it. The cars are slower than both points. Drag the car’s speed up (a slider: Tab, then the arrows) until the light car catches its point.',
          de: 'Zwei graue Punkte laufen den Pfad entlang, ein langsamer (hell) und ein schneller (dunkel), jeder von einem Auto verfolgt, das direkt auf ihn zusteuert. Die Autos sind langsamer als beide Punkte. Das Tempo der Autos hochziehen (ein Schieber: Tab, dann die Pfeiltasten), bis das helle Auto seinen Punkt einholt.' },
        notice: { en: 'The plot shows each distance over time. The points are placed by arc length, so they keep their speed around every bend; the car only sees where its point is now and cuts the corners. Against the fast point the same car still falls behind.',
          de: 'Der Plot zeigt jeden Abstand über der Zeit. Die Punkte werden über die Bogenlänge platziert und halten ihr Tempo in jeder Kurve; das Auto sieht nur, wo sein Punkt gerade ist, und schneidet die Kurven. Gegen den schnellen Punkt fällt dasselbe Auto weiter zurück.' },
        check: (s) => s.pursuitDistances().slow < 0.05,
      },
    ],
  },
  {
    name: 'time',
    title: { en: 'Time between frames', de: 'Zeit zwischen Frames' },
    steps: [
      {
        example: 'walk',
        panel: 'animate',
        opens: ['#clock-box'],
        shows: ['#clock-strip'],
        do: { en: 'Make this a slow machine: tick “A slow machine”, then press Play.',
          de: 'Einen langsamen Rechner daraus machen: „Ein langsamer Rechner“ ankreuzen, dann Abspielen drücken.' },
        notice: { en: 'Each frame now takes 50 ms (the tall bars), yet the walk keeps its pace: the player advances by the time that has passed, so the animation time matches the clock. Frames under 10 ms would be skipped (grey), a gap over 1 s shown as a pause (orange).',
          de: 'Jeder Frame dauert jetzt 50 ms (die hohen Balken), und doch hält das Gehen sein Tempo: der Player rückt um die vergangene Zeit vor, die Animationszeit stimmt mit der Uhr überein. Frames unter 10 ms würden übersprungen (grau), eine Lücke über 1 s als Pause gezeigt (orange).' },
        check: (s) => s.animPlaying() && s.clockFrames().filter((f) => f.kind === 'drawn' && f.dt > 0.04).length >= 3,
      },
      {
        example: 'walk',
        panel: 'animate',
        opens: ['#clock-box'],
        shows: ['#clock-text'],
        prepare: (s) => s.setClock({ slow: true }),
        do: { en: 'Now count frames instead: tick “Advance by frame count” and press Play.',
          de: 'Jetzt stattdessen Frames zählen: „Nach Frame-Anzahl vorrücken“ ankreuzen und Abspielen drücken.' },
        notice: { en: 'Each frame advances 1/60 s however long it took: at 20 frames a second the walk runs at a third of its speed, and the line under the strip shows the animation time falling behind the clock. This is why the animation talk interpolates by elapsed time.',
          de: 'Jeder Frame rückt 1/60 s vor, wie lange er auch gedauert hat: bei 20 Frames je Sekunde läuft das Gehen mit einem Drittel seines Tempos, und die Zeile unter dem Streifen zeigt die Animationszeit hinter der Uhr zurückbleiben. Darum interpoliert der Animationsvortrag nach der vergangenen Zeit.' },
        check: (s) => s.animPlaying() && s.clockByFrames() && s.clockFrames().filter((f) => f.kind === 'drawn').length >= 3,
      },
    ],
  },
  {
    name: 'rotations',
    title: { en: 'Rotations between keys', de: 'Rotationen zwischen Keys' },
    steps: [
      {
        example: 'two-bone',
        panel: 'animate',
        opens: ['#rotations'],
        // The three bodies are drawn over the view; the panel shows t and the plot.
        shows: ['#rot-plot', '#rot-t'],
        prepare: (s) => s.setRotation({ preset: 'x', t: 0 }),
        do: { en: 'The same body turns half a turn about X, three ways side by side. Drag t to the middle (a slider: Tab, then the arrows).',
          de: 'Derselbe Körper dreht sich eine halbe Drehung um X, auf drei Arten nebeneinander. t in die Mitte ziehen (ein Schieber: Tab, dann die Pfeiltasten).' },
        notice: { en: 'Blending the matrices’ entries flattens the body to a line halfway (its determinant is 0, the plot’s blue curve): the blended matrix is no rotation. Euler angles and slerp turn it whole.',
          de: 'Die Einträge der Matrizen zu mischen drückt den Körper auf halbem Weg zu einer Linie zusammen (seine Determinante ist 0, die blaue Kurve im Plot): die gemischte Matrix ist keine Rotation. Euler-Winkel und Slerp drehen ihn unversehrt.' },
        check: (s) => Math.abs(s.rotationLab().t - 0.5) <= 0.1,
      },
      {
        example: 'two-bone',
        panel: 'animate',
        opens: ['#rotations'],
        shows: ['#rot-preset'],
        prepare: (s) => s.setRotation({ preset: 'x', t: 0.5 }),
        do: { en: 'Choose the double rotation R(0, πt, πt) in the Turn menu.',
          de: 'Im Menü Drehung die Doppelrotation R(0, πt, πt) wählen.' },
        notice: { en: 'The dashed line is the path of the marked corner. Turning each Euler angle on its own takes a detour; slerp takes the shortest way about one axis, as the animation talk advises for complex turns. “Other angles, same orientation” and the gimbal lock show two more traps of Euler angles.',
          de: 'Die gestrichelte Linie ist der Weg der markierten Ecke. Jeden Euler-Winkel für sich zu drehen macht einen Umweg; Slerp nimmt den kürzesten Weg um eine Achse, wie der Animationsvortrag für komplexe Drehungen rät. „Andere Winkel, gleiche Orientierung“ und der Gimbal Lock zeigen zwei weitere Fallen der Euler-Winkel.' },
        check: (s) => s.rotationLab().preset === 'yz',
      },
    ],
  },
  {
    name: 'vertex-keys',
    title: { en: 'Vertex animation and bones', de: 'Vertex-Animation und Bones' },
    steps: [
      {
        example: 'flip',
        panel: 'animate',
        shows: ['#anim-memory'],
        do: { en: 'Both arrows turn by 180° between the same two keys. Press Play.',
          de: 'Beide Pfeile drehen sich zwischen denselben zwei Keys um 180°. Abspielen drücken.' },
        notice: { en: 'Left, the bone’s rotation is interpolated: the arrow turns. Right, its two point lists are (vertex animation, the sliding door): every point runs straight through the pivot and the arrow shrinks to a point halfway. The panel says what one keyframe costs each way.',
          de: 'Links wird die Rotation des Bones interpoliert: der Pfeil dreht sich. Rechts werden seine zwei Punktlisten interpoliert (Vertex-Animation, die Schiebetür): jeder Punkt läuft gerade durch den Drehpunkt, und der Pfeil schrumpft auf halbem Weg zu einem Punkt. Das Panel sagt, was ein Keyframe auf jede Art kostet.' },
        check: (s) => s.animPlaying() && s.animTime() > 0.5,
      },
    ],
  },
  {
    name: 'capture',
    title: { en: 'Motion capture', de: 'Motion Capture' },
    steps: [
      {
        example: 'capture',
        panel: 'animate',
        shows: ['#timeline'],
        do: { en: 'A motion capture (a BVH file): press Play.',
          de: 'Eine Motion-Capture-Aufnahme (eine BVH-Datei): Abspielen drücken.' },
        notice: { en: 'The timeline is full: a key for every joint in every frame, recorded, not set by hand — the contrast the animation talk draws to keyframes.',
          de: 'Die Zeitleiste ist voll: ein Key für jedes Gelenk in jedem Frame, aufgezeichnet, nicht von Hand gesetzt — der Gegensatz, den der Animationsvortrag zu Keyframes zieht.' },
        check: (s) => s.animPlaying() && s.animTime() > 0.3,
      },
      {
        example: 'capture',
        panel: 'animate',
        opens: ['#reduce-box'],
        shows: ['#reduce-text'],
        do: { en: 'Under Key reduction, press “Reduce keys”: the tolerance is 0.3 % of the figure’s size.',
          de: 'Unter Key-Reduktion „Keys reduzieren“ drücken: die Toleranz ist 0,3 % der Größe der Figur.' },
        notice: { en: 'Most keys go, yet no joint strays further than the tolerance from the capture at any frame. The plot shows the price: the fewer keys, the larger the error.',
          de: 'Die meisten Keys verschwinden, und doch entfernt sich kein Gelenk in irgendeinem Frame weiter als die Toleranz von der Aufnahme. Der Plot zeigt den Preis: je weniger Keys, desto größer der Fehler.' },
        check: (s) => { const r = s.keyReduction(); return Boolean(r) && r.after < r.before / 2; },
      },
    ],
  },
  {
    name: 'fk-ik',
    title: { en: 'FK and IK', de: 'FK und IK' },
    steps: [
      {
        example: 'leg',
        overlays: FRAMES,
        do: { en: 'Forward kinematics: turn the thigh (the upper bone) by at least 30° (keys on the view: [ and ] pick it, ← or → turns it).',
          de: 'Vorwärtskinematik: den Oberschenkel (den oberen Bone) um mindestens 30° drehen (Tasten auf der Ansicht: [ und ] wählen ihn, ← oder → dreht ihn).' },
        notice: { en: 'With FK every joint angle is set by hand, parent first, and the shin follows the thigh. Turning only the hip with a stiff shin is the animation talk’s “goose step”; a walk also needs the knee’s angle (the IK mode’s walk compares both).',
          de: 'Bei FK wird jeder Gelenkwinkel von Hand gesetzt, der Vater zuerst, und der Unterschenkel folgt dem Oberschenkel. Nur die Hüfte zu drehen, mit starrem Unterschenkel, ist der „Goose Step“ (Stechschritt) aus dem Animationsvortrag; zum Gehen braucht es auch den Winkel des Knies (das Gehen im Modus IK vergleicht beides).' },
        check: (s) => turned(s, 0, 30),
      },
      {
        example: 'leg',
        panel: 'ik',
        shows: ['#ik-report'],
        actions: ['reach'],
        do: { en: 'Inverse kinematics: drag the ring (the foot’s target), or press the button, and let the solver turn hip and knee.',
          de: 'Inverse Kinematik: den Ring (das Ziel des Fußes) ziehen oder den Knopf drücken, und der Löser dreht Hüfte und Knie.' },
        notice: { en: 'The animation talk’s law of cosines: θ₂ = arccos((x² + y² − l₁² − l₂²) / (2 l₁ l₂)) has two solutions, knee forward and knee back; the knee’s hinge limit keeps the one a real knee can bend to.',
          de: 'Der Kosinussatz aus dem Animationsvortrag: θ₂ = arccos((x² + y² − l₁² − l₂²) / (2 l₁ l₂)) hat zwei Lösungen, Knie nach vorn und Knie nach hinten; die Scharnier-Grenze des Knies behält die, die ein echtes Knie beugen kann.' },
        check: (s) => Boolean(s.ikReport()?.reached),
      },
      {
        example: 'leg',
        panel: 'ik',
        shows: ['#ik-report'],
        actions: ['far'],
        do: { en: 'Now a target out of reach: drag the ring far below the foot, or press the button.',
          de: 'Jetzt ein Ziel außer Reichweite: den Ring weit unter den Fuß ziehen oder den Knopf drücken.' },
        notice: { en: 'The chain stretches toward it as far as it can, every joint within its limits, and the panel reports that it did not reach and how far off it stays. The IK mode also races CCD against FABRIK.',
          de: 'Die Kette streckt sich so weit es geht danach aus, jedes Gelenk in seinen Grenzen, und das Panel meldet, dass sie das Ziel nicht erreicht und wie weit sie entfernt bleibt. Im Modus IK treten außerdem CCD und FABRIK gegeneinander an.' },
        check: (s) => s.ikReport() !== null && !s.ikReport().reached && s.ikReport().error > 0.1,
      },
    ],
  },
  {
    name: 'stretch',
    title: { en: 'Stretchy joints', de: 'Dehnbare Gelenke' },
    steps: [
      {
        example: 'arm',
        panel: 'ik',
        shows: ['#ik-report'],
        prepare: (s) => { s.setIkChain({ tip: 3, chain: 3, method: 'fabrik' }); s.setIkTarget([3.6, 0.5, 0]); },
        do: { en: 'The cup is out of the arm’s reach: the ring stays red. Drag “Stretch up to” to ×1.3 or more (a slider: Tab, then the arrows).',
          de: 'Die Tasse liegt außer Reichweite des Arms: der Ring bleibt rot. „Dehnen bis“ auf ×1,3 oder mehr ziehen (ein Schieber: Tab, dann die Pfeiltasten).' },
        notice: { en: 'The bones note allows IK “mit dehnbaren Gelenken”: every bone of the chain stretches by the same factor along its own axis, no more than the slider allows, and the next joint starts at the stretched tip. The skin stretches with it, because the skinning matrix carries the stretch.',
          de: 'Die Bones-Notiz erlaubt IK „mit dehnbaren Gelenken“: jeder Bone der Kette dehnt sich um denselben Faktor entlang seiner eigenen Achse, nicht mehr als der Regler erlaubt, und das nächste Gelenk beginnt an der gedehnten Spitze. Die Haut dehnt sich mit, weil die Skinning-Matrix die Dehnung trägt.' },
        check: (s) => Boolean(s.ikReport()?.reached) && s.lab.boneStretch(3) > 1.01,
      },
    ],
  },
  {
    name: 'robot',
    title: { en: 'A robot: rigid parts', de: 'Ein Roboter: starre Bauteile' },
    steps: [
      {
        example: 'robot',
        panel: 'ik',
        shows: ['#ik-report'],
        do: { en: 'IK works with parts as well as with bones. Drag the ring down onto the table, to the right of the arm (or Tab to the ring and move it with the arrows).',
          de: 'IK geht auch mit Bauteilen statt Bones. Den Ring rechts vom Arm hinunter auf den Tisch ziehen (oder ihn mit Tab erreichen und mit den Pfeiltasten bewegen).' },
        notice: { en: 'Each part rides one joint with weight 1, so nothing bends or blends: the parts turn at their hubs, every hinge within its range — the same solver and limits as the skinned arm, where the skin blends across the elbow.',
          de: 'Jedes Bauteil hängt mit Gewicht 1 an einem Gelenk, also biegt oder mischt sich nichts: die Teile drehen sich an ihren Naben, jedes Scharnier innerhalb seines Bereichs — derselbe Löser und dieselben Grenzen wie beim gehäuteten Arm, wo die Haut über den Ellbogen mischt.' },
        check: (s) => Boolean(s.ikReport()?.reached) && s.ikTarget()[1] < -0.9 && s.ikTarget()[0] > 0,
      },
    ],
  },
  {
    name: 'swing',
    title: { en: 'Swinging limbs', de: 'Pendelnde Glieder' },
    steps: [
      {
        example: 'leg',
        panel: 'ik',
        opens: ['#swing-box'],
        shows: ['#swing-text'],
        prepare: (s) => s.selectBone(1),
        do: { en: 'The shin is selected. Press “Let the selected bone … swing”, then drag the thigh (the upper bone) back and forth (keys on the view: [ picks the thigh, ← and → turn it).',
          de: 'Der Unterschenkel ist gewählt. „Den gewählten Bone … pendeln lassen“ drücken, dann den Oberschenkel (den oberen Bone) hin und her ziehen (Tasten auf der Ansicht: [ wählt den Oberschenkel, ← und → drehen ihn).' },
        notice: { en: 'The shin is now a pendulum hanging from the knee: it swings behind the thigh and comes to rest, never past the knee’s hinge limit. Its mass sits at its tip; the panel shows how fast the tip moves.',
          de: 'Der Unterschenkel ist jetzt ein Pendel, das am Knie hängt: er schwingt dem Oberschenkel nach und kommt zur Ruhe, nie über die Scharnier-Grenze des Knies hinaus. Seine Masse sitzt an der Spitze; das Panel zeigt, wie schnell sich die Spitze bewegt.' },
        check: (s) => { const state = s.swingState(); return state.running && Math.max(0, ...state.speeds) > 0.3; },
      },
    ],
  },
  {
    name: 'morphing',
    title: { en: 'Morphing', de: 'Morphing' },
    steps: [
      {
        example: 'face',
        panel: 'morph',
        shows: ['#morph-base'],
        actions: ['visemeA'],
        do: { en: 'A face from one wire mesh with several versions of it (“Bones, IK, Morphing”). Show the viseme A (the button, or its slider in the panel).',
          de: 'Ein Gesicht aus einem Drahtgitter mit mehreren Versionen davon („Bones, IK, Morphing“). Das Visem A zeigen (der Knopf oder sein Regler im Panel).' },
        notice: { en: 'Each vertex is the weighted sum of its versions, the base weighted 1 − Σ mₖ: with A at 1 the base weight is 0. Skinlab stores offsets Dₖ = Sₖ − B and adds B + Σ mₖ Dₖ: the same sum.',
          de: 'Jeder Vertex ist die gewichtete Summe seiner Versionen, die Basis mit 1 − Σ mₖ gewichtet: mit A bei 1 ist das Basisgewicht 0. Skinlab speichert Versätze Dₖ = Sₖ − B und rechnet B + Σ mₖ Dₖ: dieselbe Summe.' },
        check: (s) => s.lab.morphWeights()[0] >= 0.9,
      },
      {
        example: 'face',
        panel: 'morph',
        shows: ['#morph-base'],
        actions: ['visemeA', 'smile'],
        do: { en: 'Keep A and add a smile on top (the buttons).',
          de: 'A behalten und ein Lächeln dazunehmen (die Knöpfe).' },
        notice: { en: 'The weights now sum to 1.6: the base weight is −0.6 and the shape goes past the targets. The formula allows it (extrapolation); a face rarely looks right there.',
          de: 'Die Gewichte summieren sich jetzt zu 1,6: das Basisgewicht ist −0,6, und die Form geht über die Ziele hinaus. Die Formel erlaubt das (Extrapolation); ein Gesicht sieht dort selten richtig aus.' },
        check: (s) => Array.from(s.lab.morphWeights()).reduce((a, b) => a + b, 0) > 1.2,
      },
      {
        example: 'face',
        panel: 'morph',
        actions: ['say'],
        do: { en: 'Let it say “mama” (the button).',
          de: 'Es „Mama“ sagen lassen (der Knopf).' },
        notice: { en: 'A keyed clip drives the morph weights (M, A, M, A) and the jaw bone together: morphing comes first, then skinning, Z = Σ wᵢ Mᵢ (B + Σ mₖ Dₖ).',
          de: 'Ein Clip aus Keys bewegt die Morph-Gewichte (M, A, M, A) und den Kieferknochen zusammen: erst das Morphing, dann das Skinning, Z = Σ wᵢ Mᵢ (B + Σ mₖ Dₖ).' },
        check: (s) => s.lab.morphWeights()[2] > 0.5,
      },
    ],
  },
  {
    name: 'lip-sync',
    title: { en: 'Lip-sync', de: 'Lippensynchronisation' },
    steps: [
      {
        example: 'face',
        panel: 'morph',
        shows: ['#speech-track'],
        do: { en: 'Type a word of your own (three letters or more) in the Sentence field and press “Say it”.',
          de: 'Ein eigenes Wort (drei Buchstaben oder mehr) in das Feld Satz tippen und „Sprechen“ drücken.' },
        notice: { en: 'Each letter became a mouth shape, listed under the field, keyed at its middle: closed lips for M, B and P, the jaw open for A, and the shapes blending into each other between keys. With a voice the browser speaks it too.',
          de: 'Jeder Buchstabe wurde zu einer Mundform, unter dem Feld aufgelistet und in ihrer Mitte als Key gesetzt: geschlossene Lippen für M, B und P, der Kiefer offen für A, und die Formen gehen zwischen den Keys ineinander über. Mit einer Stimme spricht der Browser es auch.' },
        check: (s) => {
          const said = s.speechState();
          return Boolean(said) && said.text.trim().length >= 3 && said.text.trim().toLowerCase() !== 'mama' && s.lab.animationNames().includes('speech');
        },
      },
    ],
  },
  {
    name: 'gpu',
    title: { en: 'GPU limits', de: 'Grenzen der GPU' },
    steps: [
      {
        example: 'chain',
        panel: 'gpu',
        shows: ['#gpu-figures'],
        actions: ['format4x3'],
        do: { en: '300 bones, and a vertex shader with 256 uniform vectors (the engine note on skeletal skinning). Send the palette as 4×3 matrices (the button).',
          de: '300 Bones und ein Vertex-Shader mit 256 Uniform-Vektoren (die Engine-Notiz zum Skelett-Skinning). Die Palette als 4×3-Matrizen senden (der Knopf).' },
        notice: { en: 'A 4×3 matrix takes 3 vectors; 256 − 16 for the shader’s other uniforms leaves room for 80 bones a draw. The table in the panel: with 4×3 matrices this chain needs 4 draw calls, each with its own sub-palette; it shows every format.',
          de: 'Eine 4×3-Matrix braucht 3 Vektoren; 256 − 16 für die übrigen Uniforms lassen Platz für 80 Bones je Draw. Die Tabelle im Panel: mit 4×3-Matrizen braucht diese Kette 4 Draw-Aufrufe mit je eigener Teilpalette; sie zeigt jedes Format.' },
        check: (s) => s.viewer.paletteFormat() === 'mat4x3',
      },
      {
        example: 'arm',
        panel: 'gpu',
        shows: ['#gpu-error'],
        actions: ['stretch', 'formatQuat'],
        do: { en: 'Stretch bone 2, then send the palette as quaternion + translation (the buttons).',
          de: 'Bone 2 strecken, dann die Palette als Quaternion + Translation senden (die Knöpfe).' },
        notice: { en: 'Two vectors a bone instead of three, so 120 bones a draw — but no room for scale: the stretch is dropped from the palette, so the skin does not stretch with bone 2; it shrinks a little and leaves the bones, which reach past it. The panel measures how far.',
          de: 'Zwei Vektoren je Bone statt drei, also 120 Bones je Draw – aber kein Platz für Skalierung: die Streckung fällt aus der Palette, also streckt sich die Haut nicht mit Bone 2; sie schrumpft ein wenig und verlässt die Bones, die über sie hinausreichen. Das Panel misst, wie weit.' },
        check: (s) => s.viewer.paletteFormat() === 'quat-translation' && s.lab.bonePose(1).scale[1] > 1.2,
      },
      {
        example: 'two-bone-smooth',
        panel: 'gpu',
        shows: ['#gpu-vertex-error'],
        actions: ['eightBit'],
        pose: [[1, [0, 0, Math.sin(0.5), Math.cos(0.5)]]],
        do: { en: 'Send the weights as the engine note on skeletal skinning does: four unorm8 bytes a vertex (the button).',
          de: 'Die Gewichte wie in der Engine-Notiz zum Skelett-Skinning senden: vier unorm8-Bytes je Vertex (der Knopf).' },
        notice: { en: 'Weights rounded to 1/255 with an exact sum of 255 move a vertex by a tiny fraction of the bone’s length: bandwidth saved, nothing visible lost.',
          de: 'Auf 1/255 gerundete Gewichte mit einer genauen Summe von 255 verschieben einen Vertex nur um einen winzigen Bruchteil der Bone-Länge: Bandbreite gespart, nichts Sichtbares verloren.' },
        check: (s) => s.lab.isQuantised(),
      },
    ],
  },
  {
    name: 'rigging',
    title: { en: 'Rig a mesh', de: 'Ein Mesh riggen' },
    steps: [
      {
        example: 'mannequin',
        panel: 'rig',
        shows: ['#rig-markers'],
        do: { en: 'This mannequin has no skeleton. Press “Place markers”, then click inside the body at the chin, the groin, and the mannequin’s left elbow, wrist and knee (on the right of the screen); the right ones are mirrored. Then press “Fit the skeleton” (keys on the view: the arrows move a pointer and Enter clicks there; Tab reaches the buttons).',
          de: 'Diese Gliederpuppe hat kein Skelett. „Marker setzen“ drücken, dann in den Körper klicken: am Kinn, an der Leiste und an Ellbogen, Handgelenk und Knie der linken Seite der Puppe (rechts auf dem Bildschirm); die rechten werden gespiegelt. Dann „Skelett einpassen“ drücken (Tasten auf der Ansicht: die Pfeiltasten bewegen einen Zeiger, Enter klickt dort; Tab erreicht die Knöpfe).' },
        notice: { en: 'Each marker went midway through the body under the click. The template hung Mixamo’s bones between them: Hips, Spine, Spine1, Spine2, Neck and Head, a shoulder, arm, forearm and hand on each side, and each leg down to the toe.',
          de: 'Jeder Marker liegt in der Mitte des Körpers unter dem Klick. Die Vorlage hat Mixamos Bones zwischen sie gehängt: Hips, Spine, Spine1, Spine2, Neck und Head, auf jeder Seite Schulter, Oberarm, Unterarm und Hand, und jedes Bein bis zur Zehe.' },
        check: (s) => s.lab.boneCount() >= 20,
      },
      {
        example: 'mannequin',
        panel: 'rig',
        shows: ['#rig-report'],
        prepare: rigged(null),
        actions: ['heat'],
        do: { en: 'Read the report under “The mesh, before binding”: six loose parts, one per tube, and no open edge. Press “Bone heat” (the button).',
          de: 'Den Bericht unter „Das Mesh vor dem Binden“ lesen: sechs lose Teile, eines je Röhre, und keine offene Kante. „Bone Heat“ drücken (der Knopf).' },
        notice: { en: 'Every vertex has weights now. The arms and legs reach into the trunk but share no surface with it: heat flows over each part’s own surface from the bones inside it, so each tube goes with its own limb.',
          de: 'Jeder Vertex hat jetzt Gewichte. Arme und Beine reichen in den Rumpf, teilen aber keine Fläche mit ihm: die Wärme fließt über die eigene Fläche jedes Teils, von den Bones in ihm, also geht jede Röhre mit ihrem eigenen Glied.' },
        check: everyVertexWeighted,
      },
      {
        example: 'mannequin',
        panel: 'rig',
        prepare: rigged('heat'),
        actions: ['voxel'],
        do: { en: 'These are the bone heat weights. Press “Voxels” (the button): the body is filled with voxels, and each bone’s distance is measured through them.',
          de: 'Das sind die Bone-Heat-Gewichte. „Voxel“ drücken (der Knopf): der Körper wird mit Voxeln gefüllt, und der Abstand jedes Bones wird durch sie gemessen.' },
        notice: { en: 'Both methods weight every vertex and give each limb its own bones. They part where the tubes meet the trunk: heat follows each tube’s surface, the voxels the way through the solid body. Ctrl+Z brings the heat weights back to compare.',
          de: 'Beide Methoden gewichten jeden Vertex und geben jedem Glied seine eigenen Bones. Sie unterscheiden sich, wo die Röhren auf den Rumpf treffen: Wärme folgt der Fläche jeder Röhre, die Voxel dem Weg durch den festen Körper. Strg+Z holt die Wärme-Gewichte zum Vergleich zurück.' },
        check: (s, scene) => everyVertexWeighted(s) && weightsChanged(s, scene),
      },
      {
        example: 'mannequin',
        overlays: { bones: true },
        prepare: rigged('voxel'),
        do: { en: 'Turn the mannequin’s left forearm (on the right of the screen) by at least 45°: drag it (keys on the view: ] picks the next bone, ← or → turns it).',
          de: 'Den linken Unterarm der Puppe (rechts auf dem Bildschirm) um mindestens 45° drehen: ihn ziehen (Tasten auf der Ansicht: ] wählt den nächsten Bone, ← oder → dreht ihn).' },
        notice: { en: 'The forearm and the hand follow their bones and the skin bends at the elbow: the mesh is rigged.',
          de: 'Unterarm und Hand folgen ihren Bones, und die Haut biegt sich am Ellbogen: das Mesh ist geriggt.' },
        check: (s) => turned(s, s.lab.boneNames().indexOf('LeftForeArm'), 45),
      },
      {
        example: 'mannequin',
        overlays: { bones: true },
        prepare: wrongForearm,
        paint: { bone: 'LeftForeArm', brush: { radius: 28, strength: 1, falloff: 'smooth', mode: 'set', value: 1 } },
        do: { en: 'A wrong region: the left forearm’s skin (on the right of the screen) was weighted to the upper arm, so it stays behind, torn from the hand, as the forearm turns up. The brush paints the forearm’s weight: paint along the straight skin until it follows the forearm bone (keys on the view: the arrows move the brush, Enter paints).',
          de: 'Eine falsche Region: die Haut des linken Unterarms (rechts auf dem Bildschirm) wurde dem Oberarm gegeben und bleibt, von der Hand gerissen, zurück, wenn sich der Unterarm hebt. Der Pinsel malt das Gewicht des Unterarms: die gerade Haut entlang malen, bis sie dem Unterarm-Bone folgt (Tasten auf der Ansicht: die Pfeiltasten bewegen den Pinsel, Enter malt).' },
        notice: { en: 'The painted skin follows the forearm bone and closes up to the hand. The brush paints the faces turned to you: the back of the forearm is still the upper arm’s, so turn the view and paint it too. An automatic binding is a start: where it is wrong, a few strokes fix it, and the weights are saved with the scene.',
          de: 'Die bemalte Haut folgt dem Unterarm-Bone und schließt wieder an die Hand an. Der Pinsel malt die Flächen, die zu dir zeigen: die Rückseite des Unterarms gehört noch dem Oberarm, also die Ansicht drehen und auch sie bemalen. Eine automatische Bindung ist ein Anfang: wo sie falsch ist, beheben ein paar Pinselstriche das, und die Gewichte werden mit der Szene gespeichert.' },
        check: forearmFixed,
      },
      {
        example: 'mannequin',
        prepare: rigged('voxel'),
        actions: ['walk'],
        do: { en: 'Press “Try the walk” (the button): the walk capture plays on the new rig.',
          de: '„Den Gang probieren“ drücken (der Knopf): die Aufnahme des Gehens läuft auf dem neuen Rig.' },
        notice: { en: 'The capture’s joints found the rig’s by their names (Hips, Spine, LeftArm …), and each joint’s rest direction was turned onto the capture’s before its turns were copied: arms held out in a T swing by the sides, as the capture’s do.',
          de: 'Die Gelenke der Aufnahme fanden die des Rigs über ihre Namen (Hips, Spine, LeftArm …), und die Ruherichtung jedes Gelenks wurde auf die der Aufnahme gedreht, bevor seine Drehungen kopiert wurden: die in T-Form gehaltenen Arme schwingen an den Seiten, wie die der Aufnahme.' },
        check: (s) => s.lab.animationNames().length > 0 && s.playing(),
      },
    ],
  },
];

// The Chinese texts, step for step, beside the English and German ones.
for (const lesson of LESSONS) {
  const zh = LESSONS_ZH[lesson.name];
  if (!zh) continue;
  lesson.title.zh = zh.title;
  lesson.steps.forEach((step, k) => {
    if (!zh.steps[k]) return;
    [step.do.zh, step.notice.zh] = zh.steps[k];
  });
}
