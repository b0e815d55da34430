import { richText } from './dom.js';

// Labels in English and German (the lecture notes are German). Elements
// carry data-i18n="key" (text), data-i18n-title="key" (tooltip) or
// data-i18n-label="key" (an optgroup's label).

const LABELS = {
  en: {},
  de: {
    example: 'Beispiel',
    'ex.two-bone': '1 · Zwei Bones, starr',
    'ex.two-bone-smooth': '2 · Zwei Bones, weich',
    'ex.y-junction': '3 · Y-Aufbau, Scheitelpunkt gewichtet',
    'ex.y-junction-unweighted': '4 · Y-Aufbau, Scheitelpunkt ungewichtet',
    'ex.tube': '5 · Röhre (LBS gegen DQS)',
    'ex.chain': '6 · Kette aus 300 Bones',
    'ex.fingers': '7 · Finger (automatische Gewichte)',
    'ex.own': 'Eine eigene Szene',
    pose: 'Posieren',
    paint: 'Malen',
    reset: 'Zurücksetzen',
    undo: 'Rückgängig',
    redo: 'Wiederholen',
    share: 'Teilen',
    embed: 'Einbettcode',
    exportPng: 'PNG',
    exportJson: 'Szene speichern',
    exportGlb: 'glTF exportieren',
    importJson: 'Szene laden',
    show: 'Anzeigen',
    'ov.mesh': 'Haut',
    'ov.wireframe': 'Drahtgitter',
    'ov.dots': 'Vertices',
    'ov.bones': 'Bones',
    'ov.ownFrames': 'Eigenes System',
    'ov.childFrames': 'System der Kinder',
    'ov.ghost': 'Ruhepose',
    colour: 'Farbe',
    'view.skin': 'Haut',
    'view.weights': 'Gewicht des gewählten Bones',
    'view.bones': 'Alle Bones',
    legendNone: 'grau: gar kein Einfluss',
    brush: 'Pinsel',
    radius: 'Radius',
    strength: 'Stärke',
    mode: 'Modus',
    'mode.add': 'Hinzufügen',
    'mode.subtract': 'Abziehen',
    'mode.set': 'Auf Wert setzen',
    'mode.smooth': 'Glätten',
    value: 'Wert',
    falloff: 'Abfall',
    'falloff.smooth': 'Weich',
    'falloff.linear': 'Linear',
    'falloff.constant': 'Konstant',
    mirror: 'X-Spiegelung',
    normaliseNote: 'Die Gewichte bleiben normiert: Malen an einem Bone skaliert die anderen, nicht gesperrten Bones; gesperrte Bones ändern sich nie. Höchstens vier Bones je Vertex.',
    bones: 'Bones',
    lock: 'sperren',
    autoWeights: 'Automatische Gewichte',
    'auto.nearest': 'Nächster Bone',
    'auto.distance': 'Abstand',
    'auto.heat': 'Bone Heat',
    vertexNote: 'Gewicht eintippen und Enter drücken; die Liste wird auf Summe 1 normiert.',
    noBone: 'Kein Bone gewählt',
    noBoneHint: 'Einen Bone anklicken, um ihn zu wählen; ziehen, um ihn um seinen Ursprung zu drehen.',
    'hint.skin': 'Bone ziehen dreht ihn · Alt- oder Strg-Ziehen zieht seine Spitze (IK mit zwei Bones) · Umschalt+Ziehen verschiebt die Wurzel · Vertex anklicken zeigt seine Gewichte · leere Fläche ziehen dreht (3D) oder verschiebt (2D) die Ansicht · Mausrad zoomt · Tasten 1–9 wählen ein Beispiel · W malt Gewichte · R setzt zurück · Bild↑/Bild↓ wählen einen Bone, ←/→ drehen ihn',
    'hint.weights': 'Einen Bone in der Liste wählen, dann über die Haut ziehen, um sein Gewicht zu malen · einen Bone sperren, um seine Gewichte zu behalten · mit „Posieren“ einen Vertex anklicken, um seine Gewichte einzutippen · P posiert, W malt · Strg+Z nimmt einen ganzen Strich zurück',
    examples: 'Beispiele',
    models: 'Modelle',
    undoBudget: 'Die ältesten Schritte zum Rückgängigmachen wurden verworfen, damit der Speicher begrenzt bleibt; die neuesten bleiben.',
    needBone: 'Einen Bone wählen (in der Liste der Bones anklicken), um sein Gewicht zu malen.',
    'modeName.skin': 'Haut',
    'modeName.weights': 'Gewichte',
    'modeName.ik': 'IK',
    'modeName.morph': 'Morph',
    'modeName.lessons': 'Lektionen',
    'modeName.animate': 'Animation',
    'modeName.gpu': 'GPU',
    'gpu.format': 'Format',
    'gpu.auto': 'die des Verfahrens (LBS: 4×3-Zeilen; DQS: duale Quaternion und Skalierung)',
    'gpu.quatTranslation': 'Quaternion + Translation',
    'gpu.dualQuat': 'duale Quaternion',
    'gpu.texture': 'Palette in einer Float-Textur statt in Uniforms',
    'gpu.budget': 'Uniforms',
    'gpu.perDraw': 'Bones',
    'gpu.draws': 'Draws',
    'gpu.bytes': 'Bytes',
    'gpu.tableNote': 'je Zeile: vec4-Uniforms je Bone, Bones je Draw, Draws für dieses Netz, Palettenbytes je Bild',
    'gpu.need': 'Dieses Skelett',
    'gpu.bones': 'Bones',
    'gpu.storage': 'Palette als',
    'gpu.device': 'dieses Gerät erlaubt',
    'gpu.vectorsWord': 'Vektoren',
    'gpu.error': 'größter Abstand zu den vollen Matrizen in dieser Pose',
    'gpu.stretch': 'Gewählten Bone ×1,5 strecken',
    'gpu.note': 'Ein Vertex-Shader hat eine feste Zahl von Uniform-Vektoren (Quelle 003: 256 Konstantenregister). Die Palette teilt sie mit den übrigen Uniforms des Shaders (hier 16); eine 4×3-Matrix (3 Vektoren) erlaubt also etwa 80 Bones je Draw, ein größeres Skelett wird in mehreren Aufrufen mit je eigener Teilpalette gezeichnet. Quaternion + Translation und duale Quaternionen brauchen 2 Vektoren, haben aber keinen Platz für Skalierung.',
    'cap.gpu': 'Quelle 003: 256 Uniform-Vektoren fassen etwa 80 Bones als 4×3-Matrizen. Kleinere Formate fassen mehr Bones, verlieren aber die Skalierung: einen Bone strecken und vergleichen.',
    'ex.walk': '11 · Gehen (ein Zyklus aus Keyframes)',
    'ex.path': '12 · Pfad (Bogenlänge)',
    'ex.dense': '13 · Dichte Röhre (100.000 Vertices)',
    'anim.clip': 'Clip',
    'anim.new': 'Neuer Clip',
    'anim.newName': 'Clip',
    'anim.noClip': '(noch keiner: K drücken)',
    'anim.loop': 'Schleife',
    'anim.key': 'Key setzen (K)',
    'anim.delete': 'Key löschen',
    'anim.morphKey': 'Morph-Gewichte als Key',
    'anim.morphRow': 'Morphs',
    'lesson.kneeStep': 'Knie: Stufe',
    'steps.walk': 'Die Schritte',
    'steps.play': 'Schritte abspielen',
    'lesson.format4x3': 'Palette: 4×3-Matrizen',
    'lesson.formatQuat': 'Palette: Quaternion + Translation',
    'lesson.stretch': 'Bone 2 ×1,5 strecken',
    'lesson.eightBit': '8-Bit-Gewichte',
    'lesson.reach': 'Zum Ring greifen',
    'lesson.far': 'Ein Ziel außer Reichweite',
    'lesson.visemeA': 'Visem A',
    'lesson.smile': 'Ein Lächeln dazu',
    'lesson.kneeLinear': 'Knie: linear',
    'lesson.kneeSmooth': 'Knie: glatt',
    'lesson.keyBone2': 'Bone 2 hier als Key',
    'lesson.later': 'Zeitpunkt +1 s',
    'lesson.naive': 'Zeitverlauf: naiv',
    'lesson.uniform': 'Zeitverlauf: gleichförmig',
    'lesson.coarse': 'Tabelle: 4 Einträge',
    'lesson.fine': 'Tabelle: 512 Einträge',
    'anim.interp': 'Zwischen den Keys',
    'anim.step': 'Stufe',
    'anim.linear': 'Linear (Slerp)',
    'anim.smooth': 'Glatt (Catmull-Rom)',
    'anim.graphNote': 'Einen Bone mit Keys wählen, um seinen Drehwinkel über der Zeit zu sehen.',
    'anim.pickBone': 'Zuerst einen Bone wählen: in der Ansicht oder in der Bone-Liste anklicken.',
    'path.title': 'Pfad',
    'path.new': 'Neuer Pfad für den Bone',
    'path.show': 'Anzeigen',
    'path.timing': 'Zeitverlauf',
    'path.uniform': 'gleichförmig: konstante Geschwindigkeit',
    'path.ease': 'sanft an- und abschwellend',
    'path.naive': 'naiv: u proportional zur Zeit',
    'path.table': 'Tabelle',
    'path.entries': 'Einträge',
    'path.length': 'Länge',
    'path.integrated': 'integriert',
    'path.short': 'zu kurz',
    'path.lookup': 'Fehler beim Nachschlagen bis',
    'path.note': 'Seed 004: Annäherung durch Aufsummierung – kurze Sehnen zu einer Tabelle von Längen l<sub>k</sub> aufsummieren, dann das u zu einer Bogenlänge s per Binärsuche und Interpolation finden. Quadrate: gleiche Zeitschritte; Punkte: die Stützstellen der Tabelle.',
    'hint.animate': 'Bone wählen, posieren, K drücken · auf das Lineal klicken, um den Zeitpunkt zu setzen · einen Key ziehen, um ihn zeitlich zu verschieben · Entf löscht den gewählten Key · Leertaste spielt ab · die runden Griffe des Pfads ziehen',
    'cap.walk': 'Ein Gehzyklus aus fünf Keys je Gelenk, glatt (Catmull-Rom): Abspielen drücken, dann ein Knie wählen, seine Keys auf Stufe oder Linear stellen und zusehen, wie sich der Winkelverlauf ändert.',
    'cap.path': 'Der Fisch folgt einem Bézier-Pfad. Quadrate: gleiche Zeitschritte; Punkte: die Tabelle der Bogenlängen. Mit dem naiven Zeitverlauf drängen sich die Quadrate dort, wo die Kontrollpunkte eng liegen.',
    'cap.animate': 'Keyframes: einen Bone wählen, posieren, K drücken; den Zeitpunkt verschieben und wiederholen. Abspielen interpoliert zwischen den Keys.',
    'twist.title': 'Verdrehung: LBS gegen DQS',
    'twist.angle': 'Verdrehung',
    'twist.note': 'Volumen: die Röhre mit geschlossenen Enden, posiert / Ruhe. LBS mittelt die Matrizen, was ein verdrehtes Gelenk schrumpfen lässt; DQS blendet die starren Bewegungen.',
    'lesson.step': 'Schritt',
    'lesson.done': 'Geschafft',
    'lesson.todo': 'Noch nicht',
    'lesson.next': 'Weiter',
    'lesson.previous': 'Zurück',
    'lesson.finish': 'Nächste Lektion',
    'lesson.notice': 'Was man sieht',
    'lesson.pick': 'Lektion',
    'ex.face': '10 · Gesicht (Morph-Targets und ein Kiefer)',
    'cap.face': 'Morph-Targets vor dem Skinning (Modus Morph): die Regler für die Viseme A, O, M, F und ein Lächeln oder Stirnrunzeln bewegen und den Kiefer öffnen: der Mund behält seine Form, während sich der Kiefer bewegt.',
    'cap.morph': 'Morphing: jeder Vertex ist die gewichtete Summe seiner Versionen; die Basis hat das Gewicht 1 − Σ. Die Regler bewegen, die Basis-Gewichtung folgt.',
    'morph.none': 'Diese Szene hat keine Morph-Targets: „10 · Gesicht“ öffnen oder eine glTF-Datei mit Targets laden.',
    'morph.extrapolation': 'Die Gewichte summieren sich zu mehr als 1: das Basis-Gewicht ist negativ, und die Form geht über die Targets hinaus (Extrapolation). Die Formel erlaubt es; Gesichter sehen dort selten richtig aus.',
    'morph.jaw': 'Kiefer',
    'morph.say': '„Mama“ sagen',
    'morph.zero': 'Alle auf 0',
    'morph.forms': 'Quelle 001 schreibt jeden Vertex als gewichtete Summe seiner Versionen, die Basis mit dem Gewicht 1 − Σ m<sub>k</sub>: (1 − Σ m<sub>k</sub>) B + Σ m<sub>k</sub> S<sub>k</sub>. Skinlab speichert Versätze D<sub>k</sub> = S<sub>k</sub> − B und rechnet B + Σ m<sub>k</sub> D<sub>k</sub>: dieselbe Summe. Erst wird gemorpht, dann geskinnt: Z = Σ w<sub>i</sub> M<sub>i</sub> (B + Σ m<sub>k</sub> D<sub>k</sub>).',
    'ex.leg': '8 · Bein (IK, ein Knie, das nur in eine Richtung knickt)',
    'ex.arm': '9 · Arm (IK, Kegel-Beschränkungen)',
    'cap.leg': 'Den Ring am Fuß ziehen: das Knie ist ein Scharnier von 0° bis 150° und knickt nur nach hinten. Den Fuß vor das Knie ziehen: die Kette bleibt in ihren Grenzen.',
    'cap.arm': 'Vier Bones mit Kegel-Beschränkungen an Schulter und Handgelenk und einem Scharnier am Ellbogen: den Ring ziehen und CCD mit FABRIK vergleichen.',
    'cap.ik': 'Inverse Kinematik: den Ring ziehen, die Spitze der Kette folgt; jedes Gelenk bleibt in seinen Grenzen.',
    'ik.method': 'Verfahren',
    'ik.analytic': 'Analytisch (zwei Bones, Quelle 004)',
    'ik.chain': 'Bones in der Kette',
    'ik.tip': 'Spitze:',
    'ik.limitPosing': 'Auch beim Posieren von Hand in den Grenzen bleiben',
    'ik.limit': 'Grenze des gewählten Bones',
    'ik.kind': 'Art',
    'ik.none': 'Keine (frei)',
    'ik.hinge': 'Scharnier',
    'ik.cone': 'Kegel und Verdrehung',
    'ik.axis': 'Achse',
    'ik.swing': 'Kegel',
    'ik.twist': 'Verdrehung ±',
    'ik.race': 'Wettlauf: CCD gegen FABRIK',
    'ik.raceRun': 'Beide von dieser Pose aus starten',
    'hint.ik': 'Den Ring ziehen: die Spitze der Kette folgt, jedes Gelenk in seinen Grenzen · die Spitze in der Liste der Bones wählen · ein Scharnier hat eine Achse und einen Bereich, ein Kegel neigt und verdreht sich in seinen Winkeln · ein Ziehen ist ein Schritt zum Rückgängigmachen',
    'cap.weights': 'Gewichte malen: einen Bone wählen und über die Haut ziehen. Die Farbe zeigt sein Gewicht; „Posieren“ probiert die Gewichte aus.',
    rotation: 'Drehung',
    about: 'um',
    'matrix.rest': 'Ruhesystem, Bone → Modell',
    'matrix.animation': 'Animation, im System des Bones',
    'matrix.skinning': 'Skinning-Matrix',
    pitfall: 'Jeder Vertex wandert nach Z = Σ w<sub>i</sub> M<sub>i</sub> P. Die Formel R′<sub>i</sub> · A<sub>i</sub> · R<sub>i</sub><sup>−1</sup> würde die Pose doppelt anwenden: R′<sub>i</sub> enthält A<sub>i</sub> schon.',
    resume: 'Klicken zum Fortsetzen',
    contextLost: 'Die Grafik wurde vom Browser angehalten.',
    'cap.two-bone': 'Bone 2 drehen: die Vertices von Bone 1 bewegen sich nicht. Jeder Vertex gehört genau einem Bone, daher knickt die Haut am Gelenk.',
    'cap.two-bone-smooth': 'Am Gelenk gehören die Vertices beiden Bones: Bone 2 drehen, und der Streifen biegt sich weich.',
    'cap.y-junction': 'Der Scheitelpunkt gehört beiden Schenkeln, je zur Hälfte: einen Schenkel biegen, und der Punkt folgt halb.',
    'cap.y-junction-unweighted': 'Der Scheitelpunkt gehört nur dem linken Schenkel: den rechten biegen, und die Haut reißt am Scheitelpunkt auf.',
    'cap.tube': 'Bone 2 um 180° verdrehen und vergleichen („Nebeneinander“ zeigt beide): LBS lässt das Gelenk zum „Bonbonpapier“ kollabieren, DQS erhält das Volumen.',
    'cap.chain': '300 Bones: zu viele für Uniforms, daher reist die Matrix-Palette als Float-Textur zum Shader.',
    'cap.fingers': '„Nächster Bone“ drücken (Gewichte): die Zeigefingerspitze liegt näher am Bone des Mittelfingers und folgt ihm. „Bone Heat“ lässt sie am eigenen Finger.',
    twist: 'Bone 2 um 180° verdrehen',
    play: 'Abspielen',
    compare: 'Nebeneinander',
    pause: 'Anhalten',
    custom: 'Eine eigene Szene.',
    quantised: '8-Bit-Gewichte (unorm8, wie in Quelle 003)',
    noInfluence: 'Kein Bone bewegt diesen Vertex: er bleibt in der Ruhelage.',
  },
};

let language = 'en';

/** The language in use: `en` or `de`. */
export function currentLanguage() {
  return language;
}

/** Chooses the language; unknown ones fall back to English. */
export function setLanguage(lang) {
  language = Object.hasOwn(LABELS, lang) ? lang : 'en';
  document.documentElement.lang = language;
}

/** The label for `key`, or `fallback` (the English text) when there is none. */
export function t(key, fallback) {
  return LABELS[language][key] ?? fallback;
}

/** Rewrites every element marked with data-i18n in the current language. */
export function translatePage() {
  for (const element of document.querySelectorAll('[data-i18n]')) {
    const english = element.dataset.i18nEn ?? element.textContent;
    element.dataset.i18nEn = english;
    element.textContent = t(element.dataset.i18n, english);
  }
  // Labels with subscripts (<sub>, <sup>), built as nodes, never parsed.
  for (const element of document.querySelectorAll('[data-i18n-html]')) {
    const english = element.dataset.i18nHtmlEn ?? element.innerHTML;
    element.dataset.i18nHtmlEn = english;
    element.replaceChildren(...richText(t(element.dataset.i18nHtml, english)));
  }
  for (const element of document.querySelectorAll('[data-i18n-label]')) {
    const english = element.dataset.i18nLabelEn ?? element.label;
    element.dataset.i18nLabelEn = english;
    element.label = t(element.dataset.i18nLabel, english);
  }
  for (const element of document.querySelectorAll('[data-i18n-title]')) {
    const english = element.dataset.i18nTitleEn ?? element.title;
    element.dataset.i18nTitleEn = english;
    element.title = t(element.dataset.i18nTitle, english);
  }
}
