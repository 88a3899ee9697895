//! Position sampling, rollouts and dataset formats for training (work in progress: see the datasets issue).
