// Calls side by side, each rendered as soon as all have answered, for views that show what came back even when
// one call failed.

/**
 * Takes [promise, render] pairs; when every promise has settled, renders each value that came, then rejects with
 * the first failure (the shell reports it) or resolves.
 */
export async function renderEach(...pairs) {
  const results = await Promise.allSettled(pairs.map(([promise]) => promise));
  results.forEach((result, i) => {
    if (result.status === 'fulfilled') pairs[i][1](result.value);
  });
  const failure = results.find((result) => result.status === 'rejected');
  if (failure) throw failure.reason;
}
