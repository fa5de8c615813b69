#include "systolic_grid.h"

#include <algorithm>
#include <cstring>
#include <deque>
#include <memory>
#include <vector>

namespace scalebook::systolic_grid {
namespace {

using Tag = std::int32_t;  // fold + 1 of the value a register holds; 0: empty

Tag tag_of(i64 fold) { return static_cast<Tag>(fold + 1); }

struct Fold {
  i64 index, r0, c0;  // r0, c0: first row and column of W (ws, is) or of Y (os) it maps
  i64 start;          // cycle its stream enters array row 0
  i64 done = 0;       // results handed out
};

Fold fold_at(const Job& j, i64 g, i64 start) {
  return {g, (g % j.row_folds) * j.R, (g / j.row_folds) * j.C, start};
}

// A row of PEs: out = in + x * y (kAccumulate: out += x * y); returns the MACs on two real
// (unpadded) values. Blocks of 4 and __restrict (a GCC and Clang extension) let -O2 vectorize.
template <bool kAccumulate>
i64 mac_row(double* __restrict out, const double* __restrict in, const double* __restrict x,
            const double* __restrict y, const Tag* __restrict tag, const Tag* __restrict real_x,
            const Tag* __restrict real_y, Index n) {
  i64 macs = 0;
  Index c = 0;
  for (; c + 4 <= n; c += 4) {
    for (Index i = 0; i < 4; ++i)
      out[c + i] = (kAccumulate ? out : in)[c + i] + x[c + i] * y[c + i];
    Tag m = 0;
    for (Index i = 0; i < 4; ++i) m += (tag[c + i] != 0) & real_x[c + i] & real_y[c + i];
    macs += m;
  }
  for (; c < n; ++c) {
    out[c] = (kAccumulate ? out : in)[c] + x[c] * y[c];
    macs += (tag[c] != 0) & real_x[c] & real_y[c];
  }
  return macs;
}

// What both kinds of array share: the folds in flight and the cycle loop.
class Grid {
 public:
  Grid(const Job& job, Convention cv) : j_(job), cv_(cv) {}
  virtual ~Grid() = default;

  // Runs to the last result: the cycle count, or -1 past `limit` cycles (it never hangs).
  i64 run(i64 limit, i64 first_frame, i64 frames, SimResult& out) {
    for (i64 t = 0; completed_ < j_.folds; ++t) {
      if (t > limit) return -1;
      i64 macs = cycle(t);
      out.macs += macs;
      if (t >= first_frame && t < first_frame + frames) out.frames.push_back(frame(t, macs));
    }
    return done_time_ + 1;
  }

 protected:
  const Job& j_;
  Convention cv_;
  std::deque<Fold> live_;  // folds streaming or draining, oldest first
  i64 next_stream_ = 0, edge_free_ = 0, completed_ = 0, done_time_ = -1;

  virtual i64 cycle(i64 t) = 0;
  virtual SimFrame frame(i64 t, i64 macs) const = 0;

  void begin(i64 t, i64 rows) {
    live_.push_back(fold_at(j_, next_stream_++, t));
    edge_free_ = t + rows;
  }
  // scalesim: fold g starts only once folds 0..g-1 have handed out their last result.
  bool idle_before(i64 g, i64 t) const { return completed_ == g && done_time_ < t; }
  // The live fold whose element k of lane `lane` enters the array's edge in cycle t.
  const Fold* entering(i64 lane, i64 t, i64 length, i64& k) const {
    for (const Fold& f : live_) {
      k = t - f.start - lane;
      if (k >= 0 && k < length) return &f;
    }
    return nullptr;
  }
  Fold* live(Tag tag) {
    Index i = ix(tag - 1 - live_.front().index);
    return i < live_.size() ? &live_[i] : nullptr;
  }
  void retire(i64 t, i64 results) {
    while (!live_.empty() && live_.front().done == results) {
      live_.pop_front(), ++completed_, done_time_ = t;
    }
  }
};

// ws and is: per PE a stationary value, a shadow of the next fold's, the streamed value moving
// right and the partial sum moving down; per column a load chain.
class Stationary : public Grid {
 public:
  Stationary(const Job& job, Convention cv, bool stationary_a)
      : Grid(job, cv), stationary_a_(stationary_a) {
    Index n = ix(j_.R * j_.C), C = ix(j_.C);
    for (auto* v : {&act_, &psum_, &w_, &shadow_, &chain_}) v->assign(n, 0);
    for (auto* v : {&tag_, &wtag_, &stag_, &wreal_, &sreal_, &creal_}) v->assign(n, 0);
    zeros_.assign(C, 0);
    for (auto* v : {&load_fold_, &seen_, &ready_}) v->assign(C, -1);
    for (auto* v : {&load_step_, &next_load_}) v->assign(C, 0);
  }

 private:
  bool stationary_a_;
  std::vector<double> act_, psum_, w_, shadow_, chain_, zeros_;
  std::vector<Tag> tag_, wtag_, stag_, wreal_, sreal_, creal_;         // *real_: 1 if not padding
  std::vector<i64> load_fold_, load_step_, next_load_, seen_, ready_;  // per column
  i64 chain_top_ = 0;

  i64 cycle(i64 t) override {
    // A stream starts once the left edge is free and column 0's shadows hold its tile.
    if (next_stream_ < j_.folds && ready_[0] == next_stream_ && t >= edge_free_) begin(t, j_.T);
    i64 macs = 0;
    for (i64 r = j_.R - 1; r >= 0; --r) macs += step_row(r, t);  // bottom-up: old sums above
    step_chains(t);
    retire(t, j_.T * j_.C);
    return macs;
  }

  i64 step_row(i64 r, i64 t) {
    Index C = ix(j_.C), o = ix(r) * C;
    double* act = &act_[o];
    Tag* tag = &tag_[o];
    std::memmove(act + 1, act, (C - 1) * sizeof(double));  // streamed values move right
    std::memmove(tag + 1, tag, (C - 1) * sizeof(Tag));
    i64 m = 0;
    const Fold* f = entering(r, t, j_.T, m);
    bool real = f && f->r0 + r < j_.D;  // padding rows carry zeros
    act[0] = real ? j_.x[ix(m * j_.D + f->r0 + r)] : 0, tag[0] = f ? tag_of(f->index) : 0;
    latch(r, t);
    const double* above = r > 0 ? &psum_[o - C] : zeros_.data();
    i64 macs = mac_row<false>(&psum_[o], above, act, &w_[o], tag, &wreal_[o], &wreal_[o], C);
    if (r == 0) {
      for (Index c = 0; c < C; ++c) seen_[c] = std::max<i64>(seen_[c], i64{tag[c]} - 1);
    }
    if (r == j_.R - 1) collect(t, tag, &psum_[o]);
    return macs;
  }

  // A fold's first streamed row carries a flag that makes each PE it reaches latch its shadow.
  // Row r holds at most one set flag per live fold (at column t - start - r), so the set bits
  // are found from the live folds rather than tested in every PE.
  void latch(i64 r, i64 t) {
    for (const Fold& f : live_) {
      i64 c = t - f.start - r;
      if (c < 0 || c >= j_.C || tag_[ix(r * j_.C + c)] != tag_of(f.index)) continue;
      Index p = ix(r * j_.C + c);
      w_[p] = shadow_[p], wreal_[p] = sreal_[p], wtag_[p] = stag_[p];
    }
  }

  // Sums leaving the bottom row go to output accumulators outside the array.
  void collect(i64 t, const Tag* tag, const double* psum) {
    for (Index c = 0; c < ix(j_.C); ++c) {
      Fold* f = tag[c] != 0 ? live(tag[c]) : nullptr;
      if (!f) continue;
      i64 m = t - f->start - (j_.R - 1) - i64(c), n = f->c0 + i64(c);
      if (n < j_.S && m >= 0 && m < j_.T) j_.y[ix(m * j_.S + n)] += psum[c];
      ++f->done;
    }
  }

  // Column c loads fold g once scalesim's fold g-1 is done, or once pipelined's fold g-1 has
  // reached column c (its shadows are free by the time the load lands). The load chains shift
  // down every cycle (a ring of rows stands in for moving each value); a tile enters last row
  // first, so after R cycles each value is at its row and is captured into the shadows.
  void step_chains(i64 t) {
    chain_top_ = (chain_top_ + j_.R - 1) % j_.R;
    Index top = ix(chain_top_ * j_.C);
    for (Index c = 0; c < ix(j_.C); ++c) {
      i64 next = next_load_[c];
      bool go = cv_ == Convention::scalesim ? idle_before(next, t) : seen_[c] >= next - 1;
      if (load_fold_[c] < 0 && next < j_.folds && go) load_fold_[c] = next, load_step_[c] = 0;
      i64 g = load_fold_[c];
      Fold f = fold_at(j_, std::max<i64>(g, 0), 0);
      i64 row = f.r0 + j_.R - 1 - load_step_[c], col = f.c0 + i64(c);
      bool real = g >= 0 && row < j_.D && col < j_.S;
      chain_[top + c] = real ? j_.w[ix(row * j_.S + col)] : 0, creal_[top + c] = real;
      if (g >= 0 && ++load_step_[c] == j_.R) capture(c, g);
    }
  }

  void capture(Index c, i64 g) {
    for (i64 r = 0; r < j_.R; ++r) {
      Index from = ix((chain_top_ + r) % j_.R * j_.C) + c, to = ix(r * j_.C) + c;
      shadow_[to] = chain_[from], sreal_[to] = creal_[from], stag_[to] = tag_of(g);
    }
    ready_[c] = g, load_fold_[c] = -1, next_load_[c] = g + 1;
  }

  SimFrame frame(i64 t, i64 macs) const override {
    SimFrame f{t, macs, std::vector<PeState>(act_.size())};
    int held = stationary_a_ ? kHasActivation : kHasWeight;
    int moving = stationary_a_ ? kHasWeight : kHasActivation;
    for (Index p = 0; p < act_.size(); ++p) {
      PeState& s = f.pes[p];
      (stationary_a_ ? s.activation : s.weight) = w_[p];
      (stationary_a_ ? s.weight : s.activation) = act_[p];
      s.psum = psum_[p], s.shadow = shadow_[p];
      s.flags = static_cast<std::uint8_t>(
          (wtag_[p] ? held : 0) | (tag_[p] ? moving | kHasPsum : 0) |
          (stag_[p] && stag_[p] != wtag_[p] ? kHasShadow : 0) | (tag_[p] && wreal_[p] ? kMac : 0) |
          (stationary_a_ ? kStationaryA : 0));
    }
    return f;
  }
};

// os: A's rows move right, B's columns move down, each PE accumulates one element of Y.
// Nothing is moved: a value that moves one PE a cycle is where it was written that many cycles
// ago. A's row r is a ring of C values stored twice (slots p and p + C hold the same), so the
// row read from its newest value is one contiguous window; B is a ring of R rows, row 0 the
// newest. Each cycle writes one value a row and one row of B instead of shifting every PE's
// registers (16 of the 44 bytes a PE-step touched were memmoves, and WebAssembly's memmove
// without bulk memory is a loop: os ran at 0.73x SCALE-Sim's speed there).
class Output : public Grid {
 public:
  Output(const Job& job, Convention cv) : Grid(job, cv) {
    Index n = ix(j_.R * j_.C);
    for (auto* v : {&b_, &acc_}) v->assign(n, 0);
    for (auto* v : {&btag_, &acc_tag_, &breal_}) v->assign(n, 0);
    a_.assign(2 * n, 0), atag_.assign(2 * n, 0), areal_.assign(2 * n, 0);
  }

 private:
  std::vector<double> a_, b_, acc_;
  std::vector<Tag> atag_, btag_, acc_tag_, areal_, breal_;
  Index head_ = 0;  // A: slot of the newest value in each row's ring, in [0, C)
  Index top_ = 0;   // B: ring row that is the array's row 0

  // Where PE (r, 0)'s A operand is: element c of the window is PE (r, c)'s.
  Index a_at(i64 r) const { return ix(r) * 2 * ix(j_.C) + head_; }
  // Where PE (r, 0)'s B operand is.
  Index b_at(i64 r) const { return (top_ + ix(r)) % ix(j_.R) * ix(j_.C); }

  i64 cycle(i64 t) override {
    bool may = cv_ == Convention::pipelined || idle_before(next_stream_, t);
    if (next_stream_ < j_.folds && t >= edge_free_ && may) begin(t, j_.D);
    head_ = (head_ + ix(j_.C) - 1) % ix(j_.C);  // every A value moves right
    top_ = (top_ + ix(j_.R) - 1) % ix(j_.R);    // every B value moves down
    Index top = b_at(0);
    for (i64 c = 0; c < j_.C; ++c) {  // B's column c, element k, enters at start + k + c
      i64 k = 0;
      const Fold* f = entering(c, t, j_.D, k);
      bool real = f && f->c0 + c < j_.S;
      b_[top + ix(c)] = real ? j_.w[ix(k * j_.S + f->c0 + c)] : 0;
      btag_[top + ix(c)] = f ? tag_of(f->index) : 0, breal_[top + ix(c)] = real;
    }
    i64 macs = 0;
    for (i64 r = j_.R - 1; r >= 0; --r) macs += step_row(r, t);
    retire(t, j_.R * j_.C);
    return macs;
  }

  i64 step_row(i64 r, i64 t) {
    Index o = ix(r * j_.C), a = a_at(r), b = b_at(r);
    i64 k = 0;
    const Fold* f = entering(r, t, j_.D, k);  // A's row r, element k, enters at start + k + r
    bool real = f && f->r0 + r < j_.T;
    double value = real ? j_.x[ix((f->r0 + r) * j_.D + k)] : 0;
    Tag tag = f ? tag_of(f->index) : 0;
    for (Index slot : {a, a + ix(j_.C)}) a_[slot] = value, atag_[slot] = tag, areal_[slot] = real;
    edges(r, t, false);
    i64 macs = mac_row<true>(&acc_[o], nullptr, &a_[a], &b_[b], &atag_[a], &areal_[a], &breal_[b],
                             ix(j_.C));
    edges(r, t, true);
    return macs;
  }

  // Operands k = 0 and k = K-1 of a fold carry flags: the first clears the accumulator, the
  // last hands the sum out after its MAC. As in ws, the set flags of row r are found from the
  // live folds (element k of lane r sits in column t - start - r - k).
  void edges(i64 r, i64 t, bool last) {
    const Index a = a_at(r), b = b_at(r);
    for (Fold& f : live_) {
      i64 c = t - f.start - r - (last ? j_.D - 1 : 0);
      if (c < 0 || c >= j_.C) continue;
      Tag atag = atag_[a + ix(c)];
      if (atag != tag_of(f.index) || btag_[b + ix(c)] != atag) continue;
      Index p = ix(r * j_.C + c);
      if (!last) {
        acc_[p] = 0, acc_tag_[p] = atag;
        continue;
      }
      i64 m = f.r0 + r, n = f.c0 + c;
      if (m < j_.T && n < j_.S) j_.y[ix(m * j_.S + n)] = acc_[p];
      ++f.done, acc_tag_[p] = 0;
    }
  }

  SimFrame frame(i64 t, i64 macs) const override {
    SimFrame f{t, macs, std::vector<PeState>(acc_.size())};
    for (i64 r = 0; r < j_.R; ++r) {
      for (i64 c = 0; c < j_.C; ++c) {
        Index p = ix(r * j_.C + c), a = a_at(r) + ix(c), b = b_at(r) + ix(c);
        PeState& s = f.pes[p];
        bool busy = atag_[a] != 0 && atag_[a] == btag_[b];
        s.weight = b_[b], s.activation = a_[a], s.psum = acc_[p];
        s.flags = static_cast<std::uint8_t>(
            (btag_[b] ? kHasWeight : 0) | (atag_[a] ? kHasActivation : 0) |
            (busy || acc_tag_[p] ? kHasPsum : 0) | (busy && areal_[a] && breal_[b] ? kMac : 0));
      }
    }
    return f;
  }
};

}  // namespace

i64 run(const Job& job, Dataflow dataflow, Convention convention, i64 limit, i64 first_frame,
        i64 frames, SimResult& out) {
  std::unique_ptr<Grid> grid;
  if (dataflow == Dataflow::os) {
    grid = std::make_unique<Output>(job, convention);
  } else {
    grid = std::make_unique<Stationary>(job, convention, dataflow == Dataflow::is);
  }
  return grid->run(limit, first_frame, frames, out);
}

}  // namespace scalebook::systolic_grid
