// The sharding domain's elements, declared once (roofline/elements.js says how). <sb-sharding>
// draws an array's layout and prices it with the array-memory calculator.
export const engineDomain = 'sharding';
export const elements = {
  'sb-sharding': { calculator: 'array-memory', load: () => import('./sb-sharding.js').then((m) => m.SbSharding) },
  // steps: the planner's worked steps sit in a closed section, asked for when it opens.
  'sb-sharded-matmul': { calculator: 'sharded-matmul', steps: 'on-open', load: () => import('./sb-sharded-matmul.js').then((m) => m.SbShardedMatmul) },
};
