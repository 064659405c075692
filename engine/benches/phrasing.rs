//! Benchmark: the phrasing reader on long and repetitive texts (the texts of
//! `tests/phrasing/long_texts.rs`), all of them read once per iteration. It guards against a
//! reader that turns quadratic or backtracks on a long post.
//!
//! Run: `cargo bench -p irish-gauge --bench phrasing -- --warm-up-time 1 --measurement-time 5`

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use irish_gauge::notation::read;

#[path = "../tests/phrasing/long_texts.rs"]
mod long_texts;

fn long_texts(c: &mut Criterion) {
    let texts = long_texts::long_texts();
    let bytes: usize = texts.iter().map(String::len).sum();
    let mut group = c.benchmark_group("read");
    group.throughput(Throughput::Bytes(bytes as u64));
    group.sample_size(10);
    group.bench_function(format!("{} long texts, {bytes} bytes", texts.len()), |b| {
        b.iter(|| {
            for text in &texts {
                black_box(read(black_box(text)));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, long_texts);
criterion_main!(benches);
