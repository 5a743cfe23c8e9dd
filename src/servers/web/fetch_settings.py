"""The fetcher's limits (``RESEARCH_FETCH_*``), apart from the fetcher itself: the server
checks them at start (a bad value is exit 2, not a failure mid-search) without importing
httpx, which it needs only once the first call arrives.
"""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class FetchSettings(BaseSettings):
    """Fetch limits (``RESEARCH_FETCH_*``); defaults suit the open web."""

    model_config = SettingsConfigDict(env_prefix="RESEARCH_FETCH_", extra="ignore")

    timeout: float = Field(default=15.0, gt=0, description="total seconds per page")
    connect_timeout: float = Field(default=5.0, gt=0)
    max_bytes: int = Field(default=10 * 1024 * 1024, ge=1024)
    max_redirects: int = Field(default=5, ge=0, le=20)
    concurrency: int = Field(default=10, ge=1, le=64)
    per_host: int = Field(default=6, ge=1, le=32, description="like a browser's connections per host")
    cache_max_age_hours: float = Field(default=24.0, gt=0, description="a cached page older than this is fetched again")
    cache_max_mb: float = Field(default=512.0, gt=0, description="the byte cache is kept under this size")
