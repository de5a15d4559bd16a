/**
 * A deterministic stream of numbers in [0, 1) for a seed: what the evaluation's synthetic audio and
 * the model builders draw on, so that a rerun reproduces a measured figure or a shipped model. Not
 * for anything that must be unpredictable.
 */
export function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}
