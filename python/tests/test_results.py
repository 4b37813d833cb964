"""load_results on a Parquet file written by pyarrow in the run's layout."""

import os
import tempfile
import unittest

from support import have

from experiments_py import load_results
from experiments_py.results import COLUMNS

ROWS = {
    "dataset": ["pima", "pima"], "learner": ["nb", "nb"], "repetition": [0, 0],
    "fold": [0, 1], "part": ["test", "test"], "measure": ["auc", "auc"], "value": [0.75, 0.5],
}


@unittest.skipUnless(have("pyarrow"), "pyarrow is not installed (it writes the test's file)")
class LoadResults(unittest.TestCase):
    def setUp(self):
        import pyarrow
        import pyarrow.parquet
        self.folder = tempfile.TemporaryDirectory()
        self.run = os.path.join(self.folder.name, "results", "demo")
        os.makedirs(self.run)
        pyarrow.parquet.write_table(pyarrow.table(ROWS), os.path.join(self.run,
                                                                      "per_fold.parquet"))

    def tearDown(self):
        self.folder.cleanup()

    @unittest.skipUnless(have("pandas"), "pandas is not installed")
    def test_pandas_from_the_folder_or_the_file(self):
        for path in (self.run, os.path.join(self.run, "per_fold.parquet")):
            frame = load_results(path)
            self.assertEqual(list(frame.columns), COLUMNS)
            self.assertEqual(frame["value"].tolist(), [0.75, 0.5])

    @unittest.skipUnless(have("polars"), "polars is not installed")
    def test_polars(self):
        frame = load_results(self.run, backend="polars")
        self.assertEqual(frame.columns, COLUMNS)
        self.assertEqual(frame["fold"].to_list(), [0, 1])

    def test_a_folder_without_results_and_an_unknown_backend_are_refused(self):
        with self.assertRaisesRegex(FileNotFoundError, "per_fold.parquet"):
            load_results(self.folder.name)
        with self.assertRaisesRegex(ValueError, "'pandas' or 'polars'"):
            load_results(self.run, backend="arrow")


if __name__ == "__main__":
    unittest.main()
