/* run_loop.h: the timed loops of the programs (engine/bench.h's run, the
 * only code inside the clock), written once.  Each macro defines a run
 * function NAME for the program's state type STATE; it is a macro rather
 * than a function taking the operation as a pointer so that every
 * program's loop still compiles to a direct call of its own operation
 * (often inlined), with nothing else inside the clock: no call through a
 * pointer, no branch on a mode, no allocation.
 *
 * RUN_LOOP (NAME, STATE, OPERATION): OPERATION, a statement on the state
 * `s`, REPS times.
 *
 * RUN_CYCLE (NAME, STATE, OPERATION, COUNT), for the programs that cycle
 * through COUNT fixed inputs (the RSA and DSA signatures and
 * verifications of every library): each repetition calls OPERATION (s, j)
 * on input j, marks it done and moves to the next, modulo COUNT, so that
 * check can compute the inputs the loop did not reach and the digest does
 * not depend on the repetition count.  STATE has the members
 * `unsigned next` and `int done[COUNT]`.
 *
 * RUN_CYCLE_REST (S, OPERATION, COUNT), a statement for check: OPERATION
 * (S, j) on each input j of the state S that the loop did not reach, so
 * that every input has its result. */
#ifndef GB_RUN_LOOP_H
#define GB_RUN_LOOP_H

#define RUN_LOOP(name, state_type, operation)                           \
  static void                                                           \
  name (void *state, unsigned long reps)                                \
  {                                                                     \
    state_type *s = state;                                              \
    for (unsigned long i = 0; i < reps; i++)                            \
      operation;                                                        \
  }

#define RUN_CYCLE(name, state_type, operation, count)                   \
  static void                                                           \
  name (void *state, unsigned long reps)                                \
  {                                                                     \
    state_type *s = state;                                              \
    for (unsigned long i = 0; i < reps; i++)                            \
      {                                                                 \
        unsigned j = s->next;                                           \
        operation (s, j);                                               \
        s->done[j] = 1;                                                 \
        s->next = (j + 1) % count;                                      \
      }                                                                 \
  }

#define RUN_CYCLE_REST(s, operation, count)                             \
  for (unsigned j = 0; j < count; j++)                                  \
    if (!(s)->done[j])                                                  \
      operation (s, j)

#endif
