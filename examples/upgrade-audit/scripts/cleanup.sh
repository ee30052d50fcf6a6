#!/usr/bin/env bash
rm -rf build/
