//! Bearoff and hypergammon databases: generators and gnubg-compatible file formats (work in progress: see the bearoff and hypergammon issues).
