# pROC's bootstrap interval of the AUC on a CSV of label,score rows, single thread:
#   Rscript scripts/bootstrap_speed.R FILE [RESAMPLES]
# Stratified resampling (boot.stratified = TRUE, pROC's default), as stats::bootstrap_auc does.
suppressMessages(library(pROC))
args <- commandArgs(TRUE)
resamples <- if (length(args) > 1) as.integer(args[2]) else 2000L
d <- read.csv(args[1])
r <- roc(d$label, d$score, levels = c(0, 1), direction = "<", quiet = TRUE)
set.seed(1)
start <- proc.time()[["elapsed"]]
ci <- ci.auc(r, method = "bootstrap", boot.n = resamples, boot.stratified = TRUE,
             progress = "none")
cat(sprintf("n %d resamples %d auc %.6f percentile [%.6f, %.6f] seconds %.3f\n", nrow(d),
            resamples, ci[2], ci[1], ci[3], proc.time()[["elapsed"]] - start))
