// What the progress box counts: an exercise's status, and the solved and attempted of a list.
// Only a state's `exercises` is read (progress-format.js has the format).
export function exerciseStatus(record) {
  if (record?.solved) return 'solved';
  if (record?.attempts > 0) return 'attempted';
  return 'new';
}

// Counts over the exercises `ids`: { solved, attempted (any check, solved ones included), total }.
export function summarize(state, ids) {
  let solved = 0;
  let attempted = 0;
  for (const id of ids) {
    const status = exerciseStatus(state.exercises[id]);
    if (status === 'solved') solved += 1;
    if (status !== 'new') attempted += 1;
  }
  return { solved, attempted, total: ids.length };
}
