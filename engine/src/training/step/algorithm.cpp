// The book's layer, In[B, D] * W_in[D, F] -> Tmp[B, F], Tmp * W_out[F, D] -> Out[B, D], run
// step by step under the reader's layout, as chapter 5 writes its algorithms: every matmul and
// every collective of one layer's forward and backward pass in the order they run, in chapter
// 3's notation, with its FLOPs or bytes per chip and its time.
//
// The shards are the explorer's (explorer/explorer.cpp): the batch over dp, fsdp and ep (the
// book's X), F of the weights and D of the activations over tp (Y), D of the weights over fsdp
// at ZeRO-3. B is one slice's tokens of the step.
//   Forward: TP gathers In over Y (critical); ZeRO-3 gathers W_in over fsdp (prefetched, off
//   the critical path); In * W_in -> Tmp; the same for W_out; Tmp * W_out -> Out, unreduced
//   over Y when tp splits F; TP reduce-scatters Out over Y (critical).
//   Backward: TP gathers dOut over Y; Tmp * dOut -> dW_out unreduced over the batch axes, which
//   fsdp reduce-scatters and dp all-reduces (off the critical path); W_out gathered again at
//   ZeRO-3; dOut * W_out -> dTmp; In * dTmp -> dW_in, reduced the same way; W_in gathered
//   again; dTmp * W_in -> dIn, unreduced over Y, which TP reduce-scatters (critical).
//   ZeRO-1 and -2 hold whole weights: their fsdp AllGathers the updated weights once a step.
// Times the book's way, as the strategies table: a matmul 2 (B/X) D (F/Y) FLOPs / C; a
// collective V / (M W_ici) with V the whole array on the chip's axes (2V for an AllReduce) and
// M the axes it runs over, so a pass's rows add up to the table's row for the layout.
#include <cmath>
#include <string>

#include "parts.h"

namespace scalebook::training_parts {
namespace {

class Writer {
 public:
  Writer(const TrainingConfig& c, const ParallelLayout& layout, const TrainingStep& s)
      : c_(c), layout_(layout), s_(s) {
    const auto& m = layout.masks;
    batch_ = m[kDp] | m[kFsdp] | m[kEp];
    tp_ = m[kTp];
    fsdp_ = m[kFsdp];
    dp_ = m[kDp];
    gathered_ = c.zero == 3 ? fsdp_ : 0u;
    X_ = mask_axes(layout, batch_).degree;
    Y_ = mask_axes(layout, tp_).degree;
    for (const OutputSpec& col : training_schema().tables[3].columns)
      table_.columns.push_back(col.name);
  }

  // "W_in[D_X, F_Y]{U_X}": an array with each dimension's axes and the axes it is unreduced over.
  std::string array(const char* name, char rows, unsigned row_mask, char cols, unsigned col_mask,
                    unsigned unreduced = 0) const {
    Line line;
    line.add(name);
    line.add("[");
    add_dim(layout_, rows, row_mask, line);
    line.add(", ");
    add_dim(layout_, cols, col_mask, line);
    line.add("]");
    if (mask_axes(layout_, unreduced).count > 0) {
      line.add("{");
      add_dim(layout_, 'U', unreduced, line);
      line.add("}");
    }
    return std::string(line.view());
  }

  std::string axes_text(unsigned mask) const {
    std::string out;
    for (std::size_t i = 0; i < layout_.axes.size(); ++i)
      if ((mask & (1u << i)) && layout_.axes[i].size > 1) out += axis_name(layout_.axes[i]);
    return out;
  }

  void matmul(const char* pass, const std::string& a, char contracted, const std::string& b,
              const std::string& result) {
    const double flops = 2 * (c_.B / c_.slices / X_) * c_.shape.D * (c_.shape.F / Y_);
    row(pass, "matmul", "", "", a + " *_" + contracted + " " + b + " -> " + result, flops, 0,
        flops / c_.peak_flops, false);
  }

  // A collective over `mask` moving `bytes` (V); nothing when the axes hold one chip.
  void collective(const char* pass, TrainingOp op, unsigned mask, const char* strategy,
                  const std::string& before, const std::string& after, double bytes,
                  bool critical) {
    const MaskAxes a = mask_axes(layout_, mask);
    if (a.count == 0) return;
    const double moved = op == TrainingOp::all_reduce ? 2 * bytes : bytes;
    const std::string name = op == TrainingOp::all_gather       ? "AllGather"
                             : op == TrainingOp::reduce_scatter ? "ReduceScatter"
                                                                : "AllReduce";
    row(pass, name.c_str(), axes_text(mask), strategy,
        name + "_" + axes_text(mask) + " " + before + " -> " + after, 0, moved,
        moved / (a.count * s_.W_ici), critical);
  }

  // A weight gradient unreduced over the batch axes: fsdp reduce-scatters it, dp all-reduces
  // the shard left.
  void reduce_gradient(const char* name, char rows, unsigned rows_tp, char cols, unsigned cols_tp) {
    const double whole = c_.g * c_.shape.D * c_.shape.F / Y_;
    const unsigned rows_split = rows == 'D' ? fsdp_ : 0u, cols_split = cols == 'D' ? fsdp_ : 0u;
    collective("backward", TrainingOp::reduce_scatter, fsdp_, "FSDP",
               array(name, rows, rows_tp, cols, cols_tp, fsdp_ | dp_),
               array(name, rows, rows_tp | rows_split, cols, cols_tp | cols_split, dp_), whole,
               false);
    collective("backward", TrainingOp::all_reduce, dp_, "DP",
               array(name, rows, rows_tp | rows_split, cols, cols_tp | cols_split, dp_),
               array(name, rows, rows_tp | rows_split, cols, cols_tp | cols_split),
               whole / mask_axes(layout_, fsdp_).degree, false);
  }

  Table run() {
    const double act = c_.a * (c_.B / c_.slices / X_) * c_.shape.D;
    const double weight = c_.w * c_.shape.D * c_.shape.F / Y_;
    const unsigned z = gathered_;
    const std::string in_whole = array("In", 'B', batch_, 'D', 0);
    const std::string w_in = array("W_in", 'D', 0, 'F', tp_);
    const std::string w_out = array("W_out", 'F', tp_, 'D', 0);
    const std::string tmp = array("Tmp", 'B', batch_, 'F', tp_);
    const std::string d_out = array("dOut", 'B', batch_, 'D', 0);
    const std::string d_tmp = array("dTmp", 'B', batch_, 'F', tp_);
    // Forward.
    collective("forward", TrainingOp::all_gather, tp_, "TP", array("In", 'B', batch_, 'D', tp_),
               in_whole, act, true);
    collective("forward", TrainingOp::all_gather, z, "FSDP", array("W_in", 'D', z, 'F', tp_), w_in,
               weight, false);
    matmul("forward", in_whole, 'D', w_in, tmp);
    collective("forward", TrainingOp::all_gather, z, "FSDP", array("W_out", 'F', tp_, 'D', z),
               w_out, weight, false);
    matmul("forward", tmp, 'F', w_out, array("Out", 'B', batch_, 'D', 0, tp_));
    collective("forward", TrainingOp::reduce_scatter, tp_, "TP",
               array("Out", 'B', batch_, 'D', 0, tp_), array("Out", 'B', batch_, 'D', tp_), act,
               true);
    // Backward.
    collective("backward", TrainingOp::all_gather, tp_, "TP", array("dOut", 'B', batch_, 'D', tp_),
               d_out, act, true);
    matmul("backward", tmp, 'B', d_out, array("dW_out", 'F', tp_, 'D', 0, batch_));
    reduce_gradient("dW_out", 'F', tp_, 'D', 0);
    collective("backward", TrainingOp::all_gather, z, "FSDP", array("W_out", 'F', tp_, 'D', z),
               w_out, weight, false);
    matmul("backward", d_out, 'D', w_out, d_tmp);
    matmul("backward", in_whole, 'B', d_tmp, array("dW_in", 'D', 0, 'F', tp_, batch_));
    reduce_gradient("dW_in", 'D', 0, 'F', tp_);
    collective("backward", TrainingOp::all_gather, z, "FSDP", array("W_in", 'D', z, 'F', tp_), w_in,
               weight, false);
    matmul("backward", d_tmp, 'F', w_in, array("dIn", 'B', batch_, 'D', 0, tp_));
    collective("backward", TrainingOp::reduce_scatter, tp_, "TP",
               array("dIn", 'B', batch_, 'D', 0, tp_), array("dIn", 'B', batch_, 'D', tp_), act,
               true);
    // ZeRO-1 and -2: the updated weights, whole again.
    if (c_.zero < 3) {
      collective("step", TrainingOp::all_gather, fsdp_, "FSDP", array("W_in", 'D', fsdp_, 'F', tp_),
                 w_in, weight, false);
      collective("step", TrainingOp::all_gather, fsdp_, "FSDP",
                 array("W_out", 'F', tp_, 'D', fsdp_), w_out, weight, false);
    }
    return std::move(table_);
  }

 private:
  void row(const char* pass, const char* op, const std::string& axes, const char* strategy,
           std::string operation, double flops, double bytes, double time, bool critical) {
    const bool is_matmul = std::string_view(op) == "matmul";
    table_.rows.push_back({Value::of(pass), Value::of(static_cast<double>(table_.rows.size() + 1)),
                           Value::of(op), Value::of(axes), Value::of(strategy),
                           Value::of(std::move(operation)),
                           is_matmul ? Value::of(flops) : Value::none(),
                           is_matmul ? Value::none() : Value::of(bytes), Value::of(time),
                           Value::of(is_matmul  ? ""
                                     : critical ? "yes"
                                                : "no")});
  }

  const TrainingConfig& c_;
  const ParallelLayout& layout_;
  const TrainingStep& s_;
  unsigned batch_ = 0, tp_ = 0, fsdp_ = 0, dp_ = 0, gathered_ = 0;
  double X_ = 1, Y_ = 1;
  Table table_;
};

}  // namespace

Table layer_algorithm_table(const TrainingConfig& c, const ParallelLayout& layout,
                            const TrainingStep& s) {
  return Writer(c, layout, s).run();
}

}  // namespace scalebook::training_parts
