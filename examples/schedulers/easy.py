#!/usr/bin/env python3
"""EASY backfilling as an external scheduler for hpcwl.

Run it with:

    hpcwl simulate builtin:KTH-SP2 --scheduler exec:examples/schedulers/easy.py

It speaks hpcwl's scheduler protocol, hpcwl-sched/1 (JSON lines on standard
input and output; see `go doc github.com/hpcwl/hpcwl/sched/external`), and
uses nothing but Python's standard library. The policy is EASY backfilling
(Lifka 1995; Mu'alem and Feitelson 2001):

1. while the first waiting job fits in the free processors, start it;
2. the first waiting job that does not fit gets a reservation at the shadow
   time: the earliest predicted end of a running job at which the free
   processors, plus those of every running job predicted to end by then,
   cover its need; the extra processors are that count minus its need;
3. every other waiting job, in arrival order, starts if it fits in the free
   processors and either ends (by its prediction) by the shadow time or fits
   in the extra processors, which it then uses up.

With --kill (jobs stopped at their requested time) it gives the same
schedule as hpcwl's built-in `--scheduler easy`; hpcwl's tests check it.
Debug output belongs on standard error: standard output carries the protocol.
"""
import json
import sys

PROTOCOL = "hpcwl-sched/1"


def send(message):
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def easy_pass(now, free, queue, running):
    """Returns the ids of the waiting jobs to start now, in order."""
    start = []

    def launch(job):
        nonlocal free
        free -= job["procs"]
        running[job["id"]] = {"procs": job["procs"], "start": now,
                              "prediction": job["prediction"]}
        start.append(job["id"])

    # 1. First come, first served while the first waiting job fits.
    while queue and queue[0]["procs"] <= free:
        launch(queue.pop(0))
    if not queue:
        return start
    # 2. The reservation of the first waiting job.
    need = queue[0]["procs"]
    ends = sorted(r["start"] + r["prediction"] for r in running.values())
    shadow, extra = None, 0
    for end in ends:
        avail = free + sum(r["procs"] for r in running.values()
                           if r["start"] + r["prediction"] <= end)
        if avail >= need:
            shadow, extra = end, avail - need
            break
    # 3. Backfilling, in arrival order.
    kept = [queue[0]]
    for job in queue[1:]:
        p = job["procs"]
        if p <= free and shadow is not None and now + job["prediction"] <= shadow:
            launch(job)
        elif p <= free and p <= extra:
            extra -= p
            launch(job)
        else:
            kept.append(job)
    queue[:] = kept
    return start


def main():
    hello = json.loads(sys.stdin.readline())
    if hello.get("protocol") != PROTOCOL:
        sys.exit("easy.py: hpcwl speaks %r, this policy %r" % (hello.get("protocol"), PROTOCOL))
    send({"type": "hello", "protocol": PROTOCOL, "name": "easy.py"})
    queue = []     # waiting jobs, in arrival order
    running = {}   # id -> procs, start, prediction
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "end":
            break
        for event in message["events"]:
            kind = event["type"]
            if kind == "arrived":
                queue.append(event)
            elif kind == "ended":
                running.pop(event["id"], None)
            elif kind == "prediction":
                if event["id"] in running:
                    running[event["id"]]["prediction"] = event["prediction"]
                else:
                    for job in queue:
                        if job["id"] == event["id"]:
                            job["prediction"] = event["prediction"]
        send({"start": easy_pass(message["now"], message["free"], queue, running)})


if __name__ == "__main__":
    main()
