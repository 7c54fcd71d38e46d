/* cycle.h: the timed loop of the programs that cycle through a fixed set
 * of inputs (the RSA and DSA signatures and verifications of every
 * library): each repetition does the program's operation on input J,
 * marks J done and moves to the next, modulo the count, so that check can
 * compute the inputs the loop did not reach and the digest does not
 * depend on the repetition count.
 *
 * CYCLE_RUN (NAME, STATE, OPERATION, COUNT) defines that run function
 * (engine/bench.h) for a state type STATE with the members `unsigned next`
 * and `int done[COUNT]`; OPERATION (s, j) is the program's own function.
 * It is a macro rather than a function taking OPERATION as a pointer so
 * that the loop is written once and still compiles, in each program, to a
 * direct call of its operation (often inlined) with nothing else inside
 * the clock: no call through a pointer, no branch on a mode. */
#ifndef GB_CYCLE_H
#define GB_CYCLE_H

#define CYCLE_RUN(name, state_type, operation, count)                   \
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

#endif
