"""Side-by-side timing: our function and its peers on the same input, in one process, as ratios.

Machines here are shared and noisy, so only ratios measured in the same run are reported. Each
contender runs ``repeats`` times, interleaved with the others, and its best (minimum) time counts.
"""

from __future__ import annotations

import os
import platform
import time
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional


@dataclass
class Case:
    """One workload: what is scored, our callable, and the peers' callables on the same input."""

    name: str
    data: str
    ours: Callable[[], object]
    peers: Dict[str, Callable[[], object]]
    repeats: int = 3
    target: Optional[str] = None  # the speed target, quoted in the report


@dataclass
class Timing:
    case: Case
    ours_seconds: float
    peer_seconds: Dict[str, float] = field(default_factory=dict)

    def ratio(self, peer: str) -> float:
        return self.peer_seconds[peer] / self.ours_seconds


def best_of(function: Callable[[], object], repeats: int = 3) -> float:
    """The fastest of ``repeats`` wall-clock runs of ``function`` (on a shared machine, the least disturbed)."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def best_of_interleaved(functions: List[Callable[[], object]], repeats: int = 3) -> List[float]:
    """The fastest of ``repeats`` runs of each function, the functions taking turns (one run of each, then the
    next round), so that a slow spell of a shared machine falls on all of them alike."""
    times: List[List[float]] = [[] for _ in functions]
    for _ in range(repeats):
        for function, kept in zip(functions, times):
            start = time.perf_counter()
            function()
            kept.append(time.perf_counter() - start)
    return [min(kept) for kept in times]


def best_time(function: Callable[[], object]) -> float:
    start = time.perf_counter()
    function()
    return time.perf_counter() - start


def run_case(case: Case, log: Callable[[str], None] = print) -> Timing:
    contenders = {"nlgmetrics": case.ours, **case.peers}
    best = {name: float("inf") for name in contenders}
    for _ in range(case.repeats):
        for name, function in contenders.items():
            best[name] = min(best[name], best_time(function))
    timing = Timing(case, best.pop("nlgmetrics"), best)
    ratios = ", ".join(f"{peer} {_ratio(timing.ratio(peer))}x" for peer in timing.peer_seconds)
    log(f"{case.name}: nlgmetrics {timing.ours_seconds:.4f}s; {ratios}")
    return timing


def machine_description() -> str:
    cpu = platform.processor() or "unknown CPU"
    try:
        with open("/proc/cpuinfo") as handle:
            for line in handle:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, Python {platform.python_version()}"


def _ratio(value: float) -> str:
    """Two decimals near 1 (overheads), one for speed-ups."""
    return f"{value:.2f}" if value < 10 else f"{value:.1f}"


def markdown_report(timings: List[Timing], header: str) -> str:
    lines = [header, "", f"Machine: {machine_description()}", "",
             "| workload | data | nlgmetrics (s) | peer | peer (s) | speed-up | target |",
             "|---|---|---:|---|---:|---:|---|"]
    for timing in timings:
        if not timing.peer_seconds:
            lines.append(f"| {timing.case.name} | {timing.case.data} | {timing.ours_seconds:.4f} | — | — | — | {timing.case.target or ''} |")
        for peer, seconds in timing.peer_seconds.items():
            lines.append(f"| {timing.case.name} | {timing.case.data} | {timing.ours_seconds:.4f} | {peer} | {seconds:.4f} | "
                         f"**{_ratio(timing.ratio(peer))}×** | {timing.case.target or ''} |")
    return "\n".join(lines) + "\n"
