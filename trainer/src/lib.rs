//! Training (TD self-play and supervised), duels and tournaments (work in progress: see the trainer issues).
