// Long-running Python jobs for the long logs: a training run (logging lines,
// tqdm bars, Trainer dicts, checkpoints, evaluation summaries) or a data
// pipeline (shards, upserts, pandas warnings), plus the application output a
// CI script step prints. Logging timestamps are kNow markers the renderer
// fills in. Warnings appear with their "  warnings.warn(" continuation, as
// Python prints them; nothing is logged at ERROR or above.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "long_log_parts.h"

namespace kedb::eval::longlog {
namespace {

const char* kModels[] = {"bert-base-uncased", "roberta-large", "gpt2-medium", "resnet50", "vit-base-patch16-224",
                         "t5-small", "llama-3-8b-lora", "whisper-small", "efficientnet_b3", "unet-512"};
const char* kTables[] = {"orders", "customers", "events", "invoices", "sessions", "line_items", "payments"};

std::string Stamp(const char* logger, const char* level = "INFO") {
  return fmt::format("{}L {} {}:", kNow, level, logger);
}

std::string Clock(std::size_t secs) { return fmt::format("{:02}:{:02}", secs / 60 % 60, secs % 60); }

// tqdm's bar: ten cells of full blocks and one eighth-step partial block.
std::string TqdmBar(double frac) {
  static const char* kParts[] = {" ", "\u258f", "\u258e", "\u258d", "\u258c", "\u258b", "\u258a", "\u2589"};
  std::size_t full = static_cast<std::size_t>(frac * 10), part = static_cast<std::size_t>((frac * 10 - full) * 8);
  std::string bar;
  for (std::size_t i = 0; i < full; ++i) bar += "\u2588";
  if (full < 10) bar += kParts[part] + std::string(9 - full, ' ');
  return bar;
}

std::string Tqdm(const std::string& desc, std::size_t n, std::size_t total, double rate, const std::string& post) {
  double frac = static_cast<double>(n) / static_cast<double>(total);
  std::size_t elapsed = static_cast<std::size_t>(n / rate), left = static_cast<std::size_t>((total - n) / rate);
  return fmt::format("{}: {:3}%|{}| {}/{} [{}<{}, {:6.2f}it/s{}]", desc, static_cast<int>(frac * 100), TqdmBar(frac),
                     n, total, Clock(elapsed), Clock(left), rate, post);
}

// A bar run: its updates on separate lines, or (a terminal's output
// captured to a file) on one line separated by \r, as tqdm left them.
void Bar(Rng& r, const Env& e, Lines* out, const std::string& desc, std::size_t total, const std::string& post) {
  double rate = 1 + r.Below(4000) / 100.0;
  std::size_t updates = e.carriage ? 5 + r.Below(30) : 2 + r.Below(4);
  std::string joined;
  for (std::size_t i = 1; i <= updates; ++i) {
    std::string bar = Tqdm(desc, total * i / updates, total, rate, post);
    if (e.carriage) joined += "\r" + bar;
    else out->push_back(bar);
  }
  if (e.carriage) out->push_back(joined);
}

void Warn(Rng& r, const Env& e, Lines* out) {
  switch (r.Below(4)) {
    case 0:
      out->push_back(e.site + "/torch/utils/data/dataloader.py:558: UserWarning: This DataLoader will create 16 worker "
                     "processes in total. Our suggested max number of worker in current system is 8, which is smaller "
                     "than what this DataLoader is going to create. Please be aware that excessive worker creation "
                     "might get DataLoader running slow or even freeze, lower the worker number to avoid potential "
                     "slowness/freeze if necessary.");
      out->push_back("  warnings.warn(_create_warning_msg(");
      break;
    case 1:
      out->push_back(e.site + "/transformers/tokenization_utils_base.py:1601: FutureWarning: "
                     "`clean_up_tokenization_spaces` was not set. It will be set to `True` by default. This behavior "
                     "will be deprecated in transformers v4.45, and will be then set to `False` by default.");
      out->push_back("  warnings.warn(");
      break;
    case 2:
      out->push_back(e.site + "/torch/optim/lr_scheduler.py:143: UserWarning: Detected call of `lr_scheduler.step()` "
                     "before `optimizer.step()`. In PyTorch 1.1.0 and later, you should call them in the opposite "
                     "order: `optimizer.step()` before `lr_scheduler.step()`.");
      out->push_back("  warnings.warn(\"Detected call of `lr_scheduler.step()` before `optimizer.step()`. \"");
      break;
    default:
      out->push_back(e.site + "/pandas/core/reshape/concat.py:395: FutureWarning: The behavior of DataFrame "
                     "concatenation with empty or all-NA entries is deprecated. In a future version, this will no "
                     "longer exclude empty or all-NA columns when determining the result dtype.");
      out->push_back("  df = pd.concat(frames, ignore_index=True)");
  }
}

}  // namespace

Lines TrainStartup(Rng& r, const Env& e, bool pipeline) {
  Lines out;
  if (pipeline) {
    out = {fmt::format("{} Starting nightly ETL for partition date=2026-03-{:02}", Stamp("pipeline"), 1 + r.Below(28)),
           fmt::format("{} Reading manifest s3://{}-raw/exports/manifest.json ({} files)", Stamp("pipeline"), e.project,
                       100 + r.Below(900)),
           fmt::format("{} Connected to warehouse postgresql://etl@warehouse:5432/analytics", Stamp("pipeline.db")),
           fmt::format("{} Using {} worker processes, chunk size {}", Stamp("pipeline"), 2 + r.Below(15),
                       1000 * (1 + r.Below(50)))};
    Warn(r, e, &out);
    return out;
  }
  const char* model = r.Pick(kModels);
  out = {fmt::format("{} Starting run {}-{} (git {}, host gpu-node-{:02})", Stamp("__main__"), e.project,
                     r.Below(500), r.Hex(7), r.Below(64)),
         fmt::format("{} Config: configs/{}.yaml", Stamp("__main__"), model)};
  const std::string config[] = {
      fmt::format("model.name: {}", model), fmt::format("optimizer.lr: {}e-{}", 1 + r.Below(9), 4 + r.Below(2)),
      fmt::format("optimizer.weight_decay: 0.0{}", r.Below(10)), fmt::format("data.batch_size: {}", 8 << r.Below(5)),
      fmt::format("data.num_workers: {}", 2 << r.Below(4)), fmt::format("trainer.max_epochs: {}", 3 + r.Below(40)),
      std::string("trainer.precision: ") + (r.Chance(0.5) ? "bf16-mixed" : "16-mixed"),
      fmt::format("trainer.grad_clip: {}.0", 1 + r.Below(5)), fmt::format("seed: {}", r.Below(10000))};
  for (const auto& c : config) out.push_back(fmt::format("{}   {}", Stamp("__main__"), c));
  out.push_back(fmt::format("{} Using device cuda:0 (NVIDIA A100-SXM4-80GB), {} GPUs visible", Stamp("__main__"),
                            1 + r.Below(8)));
  Bar(r, e, &out, "Loading checkpoint shards", 2 + r.Below(6), "");
  Bar(r, e, &out, "Map", 10000 + r.Below(90000), "");
  Warn(r, e, &out);
  out.push_back(fmt::format("{} Model {} has {:L} parameters", Stamp("trainer"), model, 1000000 + r.Below(900000000)));
  out.push_back(fmt::format("{} ***** Running training *****", Stamp("trainer")));
  return out;
}

// A training run until about n lines: a log entry every `every` steps (our
// own logging lines, or Hugging Face Trainer's dicts), checkpoints, an
// evaluation at each epoch's end, now and then a library warning. Loss
// falls and the learning rate follows a cosine over the run.
Lines TrainLoop(Rng& r, const Env& e, std::size_t n) {
  static const std::size_t kEvery[] = {10, 20, 50, 100, 200, 500};
  const bool hf = r.Chance(0.4);
  // The run is planned for `epochs`; the crash comes `reach` of the way in.
  const double reach = 0.3 + r.Below(65) / 100.0;
  const std::size_t every = r.Pick(kEvery), epochs = 3 + r.Below(20);
  const auto planned = static_cast<std::size_t>(static_cast<double>(n) * 0.9 / reach) + 1;
  const std::size_t per_epoch = std::max<std::size_t>(1, planned / epochs) * every;
  const std::size_t total = per_epoch * epochs, ckpt = every * (10 + r.Below(100));
  const double loss0 = 2 + r.Below(300) / 100.0, floor = 0.05 + r.Below(40) / 100.0, lr0 = (1 + r.Below(9)) * 1e-5;
  Lines out;
  for (std::size_t step = every; out.size() < n; step += every) {
    const double p = std::min(1.0, static_cast<double>(step) / static_cast<double>(total));
    const double loss = floor + (loss0 - floor) * std::exp(-4 * p) * (0.95 + r.Below(100) / 1000.0);
    const double lr = lr0 * 0.5 * (1 + std::cos(3.14159265 * p)), epoch = static_cast<double>(step) / per_epoch;
    if (hf) {
      std::string bars;
      if (e.carriage) {  // the global bar's updates since the last entry, on the entry's line
        for (std::size_t i = 1 + r.Below(3); i > 0; --i) bars += "\r" + Tqdm("", step - i, total, 4.2, "").substr(2);
      }
      out.push_back(fmt::format("{}{{'loss': {:.4f}, 'grad_norm': {:.4f}, 'learning_rate': {:.3e}, 'epoch': {:.2f}}}",
                                bars, loss, 0.2 + r.Below(500) / 100.0, lr, epoch));
    } else {
      out.push_back(fmt::format("{} epoch {} step {}/{} loss={:.4f} lr={:.2e} {} samples/s", Stamp("trainer"),
                                step / per_epoch, step % per_epoch, per_epoch, loss, lr, 100 + r.Below(4000)));
    }
    if (step % ckpt == 0) {
      std::string dir = fmt::format("/data/runs/{}/checkpoint-{}", e.project, step);
      out.push_back(fmt::format("{} Saving model checkpoint to {}", Stamp("checkpoint"), dir));
      out.push_back(fmt::format("{} Model weights saved in {}/model.safetensors", Stamp("checkpoint"), dir));
    }
    if (step % per_epoch == 0) {
      Bar(r, e, &out, "Evaluating", 50 + r.Below(400), "");
      const double acc = 0.5 + 0.45 * p * (0.9 + r.Below(100) / 1000.0);
      out.push_back(hf ? fmt::format("{{'eval_loss': {:.4f}, 'eval_accuracy': {:.4f}, 'eval_runtime': {:.2f}, "
                                     "'eval_samples_per_second': {:.1f}, 'epoch': {:.1f}}}", loss * 1.1, acc,
                                     r.Below(9000) / 100.0, r.Below(90000) / 100.0, epoch)
                       : fmt::format("{} eval epoch {}: accuracy={:.4f} loss={:.4f} ({} samples)", Stamp("evaluator"),
                                     step / per_epoch - 1, acc, loss * 1.1, 1000 * (1 + r.Below(20))));
    }
    if (r.Below(400) == 0) Warn(r, e, &out);
  }
  return out;
}

// Shards of a data pipeline until about n lines.
Lines PipelineLoop(Rng& r, const Env& e, std::size_t n) {
  Lines out;
  std::size_t shards = 200 + r.Below(2000), shard = 0;
  while (out.size() < n) {
    ++shard;
    const char* table = r.Pick(kTables);
    std::size_t rows = 1000 + r.Below(90000);
    out.push_back(fmt::format("{} [shard {}/{}] read {} rows from s3://{}-raw/exports/part-{:05}.parquet in {:.1f}s",
                              Stamp("pipeline.extract"), shard, shards, rows, e.project, shard, r.Below(90) / 10.0));
    if (r.Chance(0.3)) {
      out.push_back(fmt::format("{} dropped {} duplicate rows (dedupe on {}_id)", Stamp("pipeline.transform"),
                                r.Below(40), table));
    }
    if (r.Chance(0.05)) {
      out.push_back(fmt::format("{} {} rows with null customer_id set to 'unknown'",
                                Stamp("pipeline.transform", "WARNING"), 1 + r.Below(20)));
    }
    out.push_back(fmt::format("{} upserted {} rows into analytics.{} (0 conflicts)", Stamp("pipeline.load"), rows,
                              table));
    if (r.Chance(0.1)) Bar(r, e, &out, "Processing files", shards, "");
    if (r.Chance(0.02)) Warn(r, e, &out);
  }
  return out;
}

// What a script step of a CI job prints before it falls over: migrations,
// seeding, fetching pages.
Lines ScriptLog(Rng& r, std::size_t n) {
  static const char* kApps[] = {"orders", "accounts", "billing", "inventory", "auth", "reports"};
  Lines out;
  const std::size_t mode = r.Below(3);  // a script mostly does one thing
  while (out.size() < n) {
    switch (r.Chance(0.85) ? mode : r.Below(3)) {
      case 0:
        out.push_back(fmt::format("  Applying {}.{:04}_{}... OK", r.Pick(kApps), 1 + r.Below(120),
                                  r.Chance(0.5) ? "add_index_on_created_at" : "alter_status_choices"));
        break;
      case 1:
        out.push_back(fmt::format("{} inserted {} rows into {}", Stamp("seed"), 10 * r.Below(500), r.Pick(kTables)));
        break;
      default:
        out.push_back(fmt::format("{} fetched page {}/{} from https://api.example.com/v2/{} (200, {} ms)",
                                  Stamp("sync"), 1 + r.Below(40), 40, r.Pick(kTables), 20 + r.Below(900)));
    }
  }
  return out;
}

// After an uncaught exception: wandb's teardown, `time`'s report, or nothing.
Lines JobTail(Rng& r) {
  switch (r.Below(3)) {
    case 0:
      return {"wandb: Waiting for W&B process to finish... (failed 1). Press Control-C to abort syncing.",
              "wandb: ",
              "wandb: Run history:",
              "wandb:         train/epoch \u2581\u2581\u2582\u2582\u2583\u2583\u2584\u2584\u2585\u2585\u2586\u2586"
              "\u2587\u2588",
              "wandb:          train/loss \u2588\u2587\u2586\u2585\u2584\u2584\u2583\u2583\u2582\u2582\u2582\u2581"
              "\u2581\u2581",
              "wandb: ",
              "wandb: Run summary:",
              fmt::format("wandb:         train/epoch {:.2f}", r.Below(500) / 100.0),
              fmt::format("wandb:          train/loss {:.4f}", r.Below(10000) / 10000.0),
              "wandb: ",
              fmt::format("wandb: \U0001F680 View run sweep-{} at: https://wandb.ai/ml-team/runs/{}", r.Below(99),
                          r.Hex(8)),
              "wandb: Synced 5 W&B file(s), 0 media file(s), 2 artifact file(s) and 0 other file(s)",
              fmt::format("wandb: Find logs at: ./wandb/run-20260314_{:06}-{}/logs", r.Below(240000), r.Hex(8))};
    case 1:
      return {"", fmt::format("real\t{}m{:.3f}s", r.Below(600), r.Below(60000) / 1000.0),
              fmt::format("user\t{}m{:.3f}s", r.Below(600), r.Below(60000) / 1000.0),
              fmt::format("sys\t{}m{:.3f}s", r.Below(60), r.Below(60000) / 1000.0)};
    default:
      return {};
  }
}

}  // namespace kedb::eval::longlog
