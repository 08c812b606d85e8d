"""Runs in the bench venv (bench/.venv), where ranx is installed: reads pairs of per-user value
lists as JSON on stdin ([{"model": [...], "baseline": [...]}, ...]) and prints ranx's own
p-values for each as JSON: its `student` test (scipy's ttest_rel) and its `fisher`
randomization test with RESAMPLES permutations. tests/test_compare.py compares them with
rank_metrics.compare's."""

import json
import sys
import warnings

warnings.filterwarnings("ignore")

RESAMPLES = 20_000


def main():
    import numpy as np
    from ranx.statistical_tests import fisher_randomization_test, paired_student_t_test

    out = []
    for pair in json.load(sys.stdin):
        control, treatment = np.array(pair["baseline"]), np.array(pair["model"])
        student, _ = paired_student_t_test(control, treatment)
        fisher, _ = fisher_randomization_test(control, treatment, RESAMPLES, 0.05, 42)
        out.append({"student": float(student), "fisher": float(fisher), "resamples": RESAMPLES})
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
