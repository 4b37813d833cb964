"""Nominal attributes and missing values as numbers; the worked values are written out by hand."""

import unittest

from support import have

if have("numpy"):
    import numpy as np
    from experiments_py.encoding import encode

NAN = float("nan")


@unittest.skipUnless(have("numpy"), "numpy is not installed")
class Encoding(unittest.TestCase):
    levels = [None, ["red", "green", "blue"]]
    train = [[1.0, 0.0], [3.0, 2.0], [NAN, 2.0], [8.0, NAN]]
    test = [[NAN, NAN], [2.0, 1.0]]

    def encoded(self, nominal, impute):
        return encode(np.array(self.train), np.array(self.test), self.levels, nominal, impute)

    def test_numeric_data_without_missing_values_passes_unchanged(self):
        train = np.array([[1.0, 2.0], [3.0, 4.0]])
        test = np.array([[5.0, 6.0]])
        got_train, got_test = encode(train, test, [None, None])
        self.assertIs(got_train, train)
        self.assertIs(got_test, test)

    def test_one_hot_with_the_training_mean_and_mode(self):
        # Mean of 1, 3, 8 is 4; the most frequent training level is blue (2).
        train, test = self.encoded("onehot", "mean")
        np.testing.assert_array_equal(train, [[1, 1, 0, 0], [3, 0, 0, 1], [4, 0, 0, 1],
                                              [8, 0, 0, 1]])
        np.testing.assert_array_equal(test, [[4, 0, 0, 1], [2, 0, 1, 0]])

    def test_ordinal_with_the_median(self):
        train, test = self.encoded("ordinal", "median")
        np.testing.assert_array_equal(train, [[1, 0], [3, 2], [3, 2], [8, 2]])
        np.testing.assert_array_equal(test, [[3, 2], [2, 1]])

    def test_no_imputation_passes_missing_values_on(self):
        train, test = self.encoded("onehot", "none")
        np.testing.assert_array_equal(train[3], [8, NAN, NAN, NAN])
        np.testing.assert_array_equal(test[0], [NAN, NAN, NAN, NAN])

    def test_mode_ties_take_the_first_level_and_empty_columns_fill_with_zero(self):
        train, test = encode(np.array([[NAN, 1.0], [NAN, 0.0]]), np.array([[NAN, NAN]]),
                             [None, ["a", "b"]], "ordinal", "mean")
        np.testing.assert_array_equal(test, [[0, 0]])

    def test_unknown_choices_are_refused(self):
        with self.assertRaises(ValueError):
            self.encoded("binary", "mean")
        with self.assertRaises(ValueError):
            self.encoded("onehot", "mode")


if __name__ == "__main__":
    unittest.main()
