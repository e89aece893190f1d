"""One BLAS thread in the server process (issue 13).

numpy's OpenBLAS starts a thread per core for each matrix product and keeps them spinning afterwards. The
app's products are small (bootstrap counts times statistics), and the cores are what the sessions, and the
kernel's own threads (``ReferenceSet.stats_many``), need: at 50,000 segments the spinning threads made the
compare page's 2,000 resamples 3-4x slower on a 2-core machine (2.4 s against 0.65 s with one thread, same
run). The limit is set once per process, when the frame is first imported (threadpoolctl calls OpenBLAS's
own setter, so it works although Streamlit imported numpy before the app).
"""

from __future__ import annotations

from threadpoolctl import threadpool_limits

LIMIT = threadpool_limits(limits=1, user_api="blas")
"""Kept for the process's life (leaving it as a context would restore the old limits)."""
