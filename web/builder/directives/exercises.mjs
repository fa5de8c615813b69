// ::exercise ID: an auto-graded exercise from exercises/, placed once on its chapter's page.
import { exerciseHTML } from '../exercises.mjs';

export function exerciseDirective(ctx, args, fail) {
  const [id, ...rest] = args.positional;
  if (!id || rest.length) fail('expected ::exercise ID');
  const exercise = ctx.exercises.get(id);
  if (!exercise) fail(`unknown exercise "${id}"`);
  if (ctx.placedExercises.has(id)) fail(`exercise "${id}" is placed twice`);
  ctx.placedExercises.add(id);
  return exerciseHTML(ctx.engine, exercise, ctx.renderMarkdown, ctx.solutions);
}

// This domain's directives by name (directives.mjs gathers every domain's).
export const handlers = { exercise: exerciseDirective };
