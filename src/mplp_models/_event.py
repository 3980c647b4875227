"""Behaviour of ``Event`` beyond its schema: conversion to and from CloudEvents v1.0."""

from __future__ import annotations

from mplp_models._base import MplpModel

__all__ = ["EventBase"]


class EventBase(MplpModel):
    """Behaviour of ``Event``: conversion to and from CloudEvents v1.0 JSON."""
