// `perfci contracts BINARY [--config perfci.json] [--json]`: checks the
// contracts declared in perfci.json against a built binary.
#include <fmt/core.h>

#include <exception>
#include <memory>
#include <string>

#include "perfci/cli/commands.h"
#include "perfci/contracts/binary_error.h"
#include "perfci/contracts/binary_index.h"
#include "perfci/contracts/contract_checker.h"
#include "perfci/contracts/contract_config.h"

namespace perfci::cli {
namespace {

struct ContractsOptions {
  std::string binary;
  std::string config = "perfci.json";
  bool json = false;
};

int run_contracts(const ContractsOptions& opts) {
  using namespace perfci::contracts;
  std::vector<Contract> contracts;
  try {
    contracts = load_contracts_file(opts.config);
  } catch (const ConfigError& e) {
    fmt::print(stderr, "perfci: error: contracts: {}\n", e.what());
    return 2;
  }
  if (contracts.empty()) {
    fmt::print(stderr,
               "perfci: error: contracts: {} declares no contracts (add a \"contracts\" array)\n",
               opts.config);
    return 2;
  }
  std::unique_ptr<BinaryIndex> binary;
  try {
    binary = std::make_unique<BinaryIndex>(opts.binary);
  } catch (const BinaryError& e) {
    fmt::print(stderr, "perfci: error: contracts: {}\n", e.what());
    return 2;
  }
  ContractReport report = ContractChecker(*binary).check_all(contracts);
  if (opts.json) {
    fmt::print("{}\n", report.to_json().dump(2));
  } else {
    for (const ContractResult& r : report.results) fmt::print("{}\n", r.line());
    fmt::print("{} contract{}: {} ok, {} broken, {} could not be checked\n", report.results.size(),
               report.results.size() == 1 ? "" : "s", report.count(Verdict::kOk),
               report.count(Verdict::kBroken), report.count(Verdict::kError));
  }
  return report.exit_code();
}

}  // namespace

void add_contracts_command(CLI::App& app, CommandRunner* runner) {
  auto opts = std::make_shared<ContractsOptions>();
  auto* cmd = app.add_subcommand(
      "contracts",
      "Check inline, absent, layout and returns_in_registers contracts on a built binary");
  cmd->add_option("binary", opts->binary, "The binary to check (built with -g)")->required();
  cmd->add_option("--config", opts->config, "perfci.json holding a \"contracts\" array")
      ->capture_default_str();
  cmd->add_flag("--json", opts->json, "Print the results as JSON (schema perfci.contracts/1)");
  cmd->callback([runner, opts] { *runner = [opts] { return run_contracts(*opts); }; });
}

}  // namespace perfci::cli
