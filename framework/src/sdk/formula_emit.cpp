// The last pass of the formula compiler (formula_graph.hpp): the program of a value of
// the graph, its instructions ordered by a post-order walk that takes the operand needing
// more registers first, registers given out as values die; and the graph of an existing
// program, for the combinations of programs.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "sdk/formula_graph.hpp"

namespace kexp::formula_internal {

/// The program of the graph's value `result`: the operations it needs, ordered by a
/// post-order walk (the operand that needs more registers first), registers given out as
/// values die, constants in a table without repeats.
FormulaProgram emit(const Graph& graph, const Ref& result, const std::string& formula) {
  const auto& ops = graph.operations();
  const auto fail = [&](const std::string& reason) { throw FormulaError(formula, 0, reason); };
  FormulaProgram p;
  std::vector<std::uint64_t> constant_bits;
  const auto constant_index = [&](double v) -> std::uint8_t {
    const std::uint64_t b = bits_of(v);
    for (std::size_t i = 0; i < constant_bits.size(); ++i)
      if (constant_bits[i] == b) return static_cast<std::uint8_t>(i);
    if (constant_bits.size() == FormulaProgram::kMaxConstants) {
      fail(fmt::format("it needs more than {} distinct constants", FormulaProgram::kMaxConstants));
    }
    p.constants[constant_bits.size()] = v;
    constant_bits.push_back(b);
    return static_cast<std::uint8_t>(constant_bits.size() - 1);
  };
  const auto operands_of = [&](const Operation& op) {
    std::vector<int> out;
    if (op.a.kind == Ref::Kind::node) out.push_back(op.a.node);
    if (!is_unary(op.op) && op.b.kind == Ref::Kind::node) out.push_back(op.b.node);
    return out;
  };

  // Registers each node needs (Sethi–Ullman), in index order: operands come first.
  std::vector<int> need(ops.size(), 1);
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const std::vector<int> in = operands_of(ops[i]);
    if (in.size() == 1) need[i] = std::max(1, need[static_cast<std::size_t>(in[0])]);
    if (in.size() == 2) {
      const int x = need[static_cast<std::size_t>(in[0])];
      const int y = need[static_cast<std::size_t>(in[1])];
      need[i] = x == y ? x + 1 : std::max(x, y);
    }
  }

  // Post-order from the result, without recursion.
  std::vector<int> order;
  if (result.kind == Ref::Kind::node) {
    std::vector<char> state(ops.size(), 0);  // 0 new, 1 open, 2 done
    std::vector<int> stack = {result.node};
    while (!stack.empty()) {
      const int n = stack.back();
      auto& st = state[static_cast<std::size_t>(n)];
      if (st == 2) {
        stack.pop_back();
        continue;
      }
      if (st == 1) {
        st = 2;
        order.push_back(n);
        stack.pop_back();
        continue;
      }
      st = 1;
      std::vector<int> in = operands_of(ops[static_cast<std::size_t>(n)]);
      // pushed last is visited first: the operand with the larger need
      std::stable_sort(in.begin(), in.end(), [&](int x, int y) {
        return need[static_cast<std::size_t>(x)] < need[static_cast<std::size_t>(y)];
      });
      for (int c : in)
        if (state[static_cast<std::size_t>(c)] == 0) stack.push_back(c);
    }
  }
  if (order.size() > FormulaProgram::kMaxInstructions) {
    fail(fmt::format("it compiles to {} instructions, more than the {} a program holds",
                     order.size(), FormulaProgram::kMaxInstructions));
  }

  std::vector<std::size_t> last_use(ops.size(), 0);
  for (std::size_t at = 0; at < order.size(); ++at)
    for (int c : operands_of(ops[static_cast<std::size_t>(order[at])]))
      last_use[static_cast<std::size_t>(c)] = at;

  std::vector<int> reg_of(ops.size(), -1);
  bool busy[FormulaProgram::kMaxRegisters] = {};
  const auto operand = [&](const Ref& r) -> FormulaOperand {
    switch (r.kind) {
      case Ref::Kind::constant:
        return {FormulaSource::constant, constant_index(r.c)};
      case Ref::Kind::input:
        return {r.input, 0};
      case Ref::Kind::node:
        break;
    }
    return {FormulaSource::reg,
            static_cast<std::uint8_t>(reg_of[static_cast<std::size_t>(r.node)])};
  };
  for (std::size_t at = 0; at < order.size(); ++at) {
    const auto n = static_cast<std::size_t>(order[at]);
    const Operation& op = ops[n];
    FormulaInstruction& in = p.code[at];
    in.op = op.op;
    in.a = operand(op.a);
    in.k = constant_index(op.k);
    in.m = constant_index(op.m);
    if (is_unary(op.op)) {
      if (op.op == FormulaOp::powi || op.op == FormulaOp::powc) {
        in.b = {FormulaSource::constant, constant_index(op.b.c)};
      }
    } else {
      in.b = operand(op.b);
    }
    // Operands that die here free their registers first: dst may be one of them.
    for (int c : operands_of(op)) {
      if (last_use[static_cast<std::size_t>(c)] == at)
        busy[reg_of[static_cast<std::size_t>(c)]] = false;
    }
    std::size_t r = 0;
    while (r < FormulaProgram::kMaxRegisters && busy[r]) ++r;
    if (r == FormulaProgram::kMaxRegisters) {
      fail(fmt::format("it needs more than {} intermediate values at once",
                       FormulaProgram::kMaxRegisters));
    }
    busy[r] = true;
    reg_of[n] = static_cast<int>(r);
    in.dst = static_cast<std::uint8_t>(r);
    p.register_count = std::max<std::uint32_t>(p.register_count, static_cast<std::uint32_t>(r + 1));
  }
  p.instruction_count = static_cast<std::uint32_t>(order.size());
  p.result = operand(result);
  p.constant_count = static_cast<std::uint32_t>(constant_bits.size());
  return p;
}

/// The graph of an existing program, its result returned: each instruction a node.
Ref decompile(const FormulaProgram& p, Graph& g) {
  check_formula_program(p);
  std::vector<Ref> regs(FormulaProgram::kMaxRegisters);
  const auto ref = [&](const FormulaOperand& o) -> Ref {
    switch (o.source) {
      case FormulaSource::reg:
        return regs[o.index];
      case FormulaSource::constant:
        return Ref::of_constant(p.constants[o.index]);
      case FormulaSource::none:
        return Ref::of_constant(0);
      default:
        return Ref::of_input(o.source);
    }
  };
  for (std::uint32_t i = 0; i < p.instruction_count; ++i) {
    const FormulaInstruction& in = p.code[i];
    Operation op;
    op.op = in.op;
    op.a = ref(in.a);
    op.k = p.constants[in.k];
    op.m = p.constants[in.m];
    if (is_unary(in.op)) {
      if (in.op == FormulaOp::powi || in.op == FormulaOp::powc) op.b = ref(in.b);
    } else {
      op.b = ref(in.b);
    }
    regs[in.dst] = g.node(op);
  }
  return ref(p.result);
}

}  // namespace kexp::formula_internal
