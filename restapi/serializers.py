"""Serializers every app's API shares."""

from __future__ import annotations

from rest_framework import serializers


class DetailSerializer(serializers.Serializer):
    detail = serializers.CharField()
