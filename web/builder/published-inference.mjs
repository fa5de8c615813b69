// A published serving run (kind "inference") beside the inference calculator's roofline: an
// offline max-throughput run takes each batch of B prompts of I tokens through one prefill, then
// O decode steps whose caches grow from I to I + O tokens. So
//   output tokens/s = replicas x B x O / (t_prefill(B x I) + O x t_decode(B, S = I + O/2)),
// each t the calculator's step time (weights, KV cache, FLOPs and the collectives of its tp).
// How a run maps:
//   model, chip as for training (published-runs.mjs); shape = the GPU count, or a TPU's
//     hardware.shape, or the serving search's slice of that many chips
//   layout tp, ep -> tp, ep; dtype -> the weights' and the matmuls' format; kv_dtype -> dtype_kv
//   batch -> batch; null (the largest that fits, as a max-throughput run fills memory) -> the
//     calculator's max_batch with every cache at its full I + O tokens
import { calculate, hardwareOf, modelInputs, unknownsOf, RUNS_FILE } from './published-runs.mjs';

export function compareInference(engine, run, { file = RUNS_FILE } = {}) {
  const hardware = hardwareOf(engine, run.hardware.chip);
  const unsupported = unknownsOf(engine, run, 'inference');
  if (unsupported) return { run, hardware, unsupported };
  const chip = engine.chips().find((c) => c.id === run.hardware.chip);
  const chips = run.hardware.chips;
  const { input_len: prompt, output_len: output } = run;
  const mapping = [`each batch: a prefill of its ${prompt}-token prompts, then ${output} decode steps at the average context`];
  const inputs = {
    ...modelInputs(engine, run, file), chip: chip.id, dtype_params: run.dtype, dtype: run.dtype,
    dtype_kv: run.kv_dtype ?? run.dtype,
  };
  if (run.layout?.tp) inputs.tp = run.layout.tp;
  if (run.layout?.ep) inputs.ep = run.layout.ep;
  if (hardware === 'gpu') inputs.shape = String(chips);
  else if (run.hardware.shape) inputs.shape = run.hardware.shape;
  else {
    const search = calculate(engine, 'serving-search', { ...modelInputs(engine, run, file), chip: chip.id, S: prompt + output });
    const slice = search.slices.find((s) => s.chips === chips);
    if (!slice) return { run, hardware, unsupported: `the serving search has no slice of ${chips} chips to take a shape from` };
    inputs.shape = slice.shape;
    mapping.push(`no slice shape published: ${slice.shape}, the serving search's slice of ${chips} chips`);
  }
  let batch = run.batch;
  let prefill;
  let decode;
  let full;
  try {
    if (batch === null) {
      const probe = calculate(engine, 'inference', { ...inputs, phase: 'decode', S: prompt + output, batch: 1 });
      batch = Math.floor(probe.max_batch);
      if (batch < 1) return { run, hardware, unsupported: 'the weights leave no room for one full-length KV cache' };
      mapping.push(`batch ${batch}, the largest whose caches hold every full ${prompt + output}-token context`);
    }
    // Memory at the end of each sequence; time at the average context.
    full = calculate(engine, 'inference', { ...inputs, phase: 'decode', S: prompt + output, batch });
    prefill = calculate(engine, 'inference', { ...inputs, phase: 'prefill', T: prompt, batch });
    decode = calculate(engine, 'inference', { ...inputs, phase: 'decode', S: prompt + Math.round(output / 2), batch });
  } catch (error) {
    return { run, hardware, unsupported: `the inference calculator refuses the mapped inputs: ${error.message}` };
  }
  const perBatch = prefill.t_step + output * decode.t_step;
  const total = (decode.replicas * batch * output) / perBatch;
  return {
    run, hardware, chip, kind: 'inference', mapping, layout: `tp ${decode.tp}${decode.ep > 1 ? ` x ep ${decode.ep}` : ''}` +
      `${decode.replicas > 1 ? `, ${decode.replicas} replicas` : ''} on ${inputs.shape}`,
    inputs: { ...inputs, batch }, prompt, output, batch,
    predicted: { output_tokens_per_s: total, output_tokens_per_s_per_chip: total / chips, t_prefill: prefill.t_step, t_decode: decode.t_step },
    bound: decode.bound, fits: full.fits === 'yes', memory: full.hbm_used, hbm: full.hbm_capacity,
  };
}
