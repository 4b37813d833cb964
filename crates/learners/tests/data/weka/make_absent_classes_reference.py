#!/usr/bin/env python3
"""Weka 3.6.14's Logistic on a training set that lacks some of the dataset's classes, for the
learners crate's test of `logistic` with `solver = "weka_bfgs"`.

Weka's Logistic fits every class of the ARFF header, present in training or not, with the last
one as reference. This writes primary-tumor's fixed split (train = rows i % 3 != 0, test = rows
i % 3 == 0) with the training rows of the classes `bladder` (the first) and `vagina` (the last,
so the reference class is absent) left out, through make_reference.py, with
`weka.classifiers.functions.Logistic -R 1.0E-8 -M -1` only (key `logistic`), to
<out>/primary-tumor-absent-classes.json.

Usage (from a scratch directory holding this file, make_reference.py and WekaProbabilities.java):

    javac -cp /usr/share/java/weka.jar WekaProbabilities.java
    python3 make_absent_classes_reference.py <out directory>
"""
import sys

from make_reference import LEARNERS, write_reference

write_reference("primary-tumor", sys.argv[1], learners={"logistic": LEARNERS["logistic"]},
                leave_out=("bladder", "vagina"), suffix="-absent-classes")
