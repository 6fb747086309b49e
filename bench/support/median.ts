// The median of a list of figures (the mean of the two middle ones for an even count): what the
// A/B benches read their rounds by, so that one disturbed round does not move the result.
export function median(list: readonly number[]): number {
  const sorted = [...list].sort((a, b) => a - b);
  return (sorted[Math.floor((sorted.length - 1) / 2)]! + sorted[Math.ceil((sorted.length - 1) / 2)]!) / 2;
}
