package io.pinion.seed;

/** The ids the writers gave a data set's users, boards and pins (id values, by index). */
final class SeedIds {

    final long[] users;
    final long[] boards;
    final long[] pins;

    SeedIds(SeedData data) {
        users = new long[data.plan.users()];
        boards = new long[data.boards()];
        pins = new long[data.plan.pins()];
    }
}
