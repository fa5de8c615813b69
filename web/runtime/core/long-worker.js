// The core of a domain's worker (web/runtime/<domain>/<domain>-worker.js): one engine per
// worker, one calculation per message, its progress posted as it runs and the answer (or the
// engine's error, as plain fields: name, code, field, position, message) posted back with the
// message's id. The domain's entry passes the loader of the one engine module it needs, so its
// bundle holds that module's glue only.
//
// scope: the worker's global (self); a test passes its own.
export function serveCalculations(loadEngine, scope = self) {
  let engine = null;
  scope.onmessage = async ({ data }) => {
    const { id, calculator, inputs } = data;
    try {
      engine ??= await loadEngine();
      // The page hears the progress while this call is busy.
      const progress = (fraction) => scope.postMessage({ id, progress: fraction });
      scope.postMessage({ id, result: engine.calculate(calculator, inputs, { steps: false, progress }) });
    } catch (err) {
      scope.postMessage({ id, error: errorFields(err) });
    }
  };
}

export function errorFields(err) {
  const fields = { name: err?.name, code: err?.code, field: err?.field, message: String(err?.message ?? err) };
  if (err?.position !== undefined) fields.position = err.position;
  return fields;
}
