// Tiny WebAudio blips for flips, slaps and mistakes; silent until the first tap or key unlocks audio.

const BLIPS = {
  flip: { frequency: 520, duration: 0.04, type: "triangle", gain: 0.05 },
  slap: { frequency: 880, duration: 0.12, type: "square", gain: 0.06 },
  won: { frequency: 660, duration: 0.18, type: "sine", gain: 0.12, slide: 990 },
  wrong: { frequency: 160, duration: 0.22, type: "sawtooth", gain: 0.08, slide: 110 },
  taken: { frequency: 330, duration: 0.12, type: "sine", gain: 0.08, slide: 440 },
};

export function createSound(isEnabled) {
  let context = null;

  function unlock() {
    if (!isEnabled()) return;
    const AudioContextClass = window.AudioContext || window.webkitAudioContext;
    if (!context && AudioContextClass) context = new AudioContextClass();
    if (context?.state === "suspended") context.resume();
  }

  function play(name) {
    const blip = BLIPS[name];
    if (!blip || !context || context.state !== "running" || !isEnabled()) return;
    const start = context.currentTime;
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    oscillator.type = blip.type;
    oscillator.frequency.setValueAtTime(blip.frequency, start);
    if (blip.slide) oscillator.frequency.linearRampToValueAtTime(blip.slide, start + blip.duration);
    gain.gain.setValueAtTime(blip.gain, start);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + blip.duration);
    oscillator.connect(gain).connect(context.destination);
    oscillator.start(start);
    oscillator.stop(start + blip.duration + 0.02);
  }

  return { unlock, play };
}
