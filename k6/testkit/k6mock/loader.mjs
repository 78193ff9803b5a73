// Module resolution for the smoke tests: the k6 modules resolve to the stand-ins in this folder.
const MOCKS = {
  k6: 'k6.mjs',
  'k6/http': 'http.mjs',
  'k6/metrics': 'metrics.mjs',
  'k6/data': 'data.mjs',
  'k6/execution': 'execution.mjs',
};

export async function resolve(specifier, context, next) {
  if (Object.hasOwn(MOCKS, specifier)) {
    return { url: new URL(MOCKS[specifier], import.meta.url).href, shortCircuit: true };
  }
  return next(specifier, context);
}
