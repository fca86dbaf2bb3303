"""The projection of the theatre's geography onto the hex grid (S1.1).

An equirectangular projection around a reference latitude: ``x`` grows east, ``y``
grows south, both in kilometres from the map's north-west corner. Hexes are pointy-topped,
``hex_km`` apart centre to centre; hex ``(0, 0)`` is centred on the north-west corner.

>>> p = THEATRE
>>> p.to_hex(p.lat_north, p.lon_west)
Hex(q=0, r=0)
>>> round(p.km_between(48.708, 44.515, 48.691, 43.526))  # Stalingrad - Kalach
73
"""

from __future__ import annotations

import math
from typing import Final

import attrs

from hexwar.grid.geometry import FractionalHex, Hex

__all__ = ["KM_PER_DEGREE_LAT", "THEATRE", "Projection"]

KM_PER_DEGREE_LAT: Final = 111.2
"""Kilometres per degree of latitude near 48.6 N (WGS84 meridian arc, rounded)."""

_KM_PER_DEGREE_LON_EQUATOR: Final = 111.32
_SQRT3: Final = math.sqrt(3.0)


@attrs.frozen
class Projection:
    """Equirectangular projection plus a pointy-top hex layout.

    ``lat0`` is the reference latitude whose parallel keeps true scale; ``lat_north`` and
    ``lon_west`` place the origin hex; ``hex_km`` is the centre-to-centre hex distance.
    """

    lat0: float
    lat_north: float
    lon_west: float
    hex_km: float

    @property
    def km_per_degree_lon(self) -> float:
        """Kilometres per degree of longitude on the reference parallel."""
        return _KM_PER_DEGREE_LON_EQUATOR * math.cos(math.radians(self.lat0))

    @property
    def size_km(self) -> float:
        """The hex's circumradius (centre to corner) in km."""
        return self.hex_km / _SQRT3

    def to_km(self, lat: float, lon: float) -> tuple[float, float]:
        """Plane coordinates (x east, y south) in km from the north-west corner."""
        return (
            (lon - self.lon_west) * self.km_per_degree_lon,
            (self.lat_north - lat) * KM_PER_DEGREE_LAT,
        )

    def from_km(self, x: float, y: float) -> tuple[float, float]:
        """The inverse of :meth:`to_km`: ``(lat, lon)``."""
        return (self.lat_north - y / KM_PER_DEGREE_LAT, self.lon_west + x / self.km_per_degree_lon)

    def km_between(self, lat1: float, lon1: float, lat2: float, lon2: float) -> float:
        """Distance in km on the projected plane."""
        x1, y1 = self.to_km(lat1, lon1)
        x2, y2 = self.to_km(lat2, lon2)
        return math.hypot(x2 - x1, y2 - y1)

    def fractional(self, lat: float, lon: float) -> FractionalHex:
        """Fractional axial coordinates of a point (Red Blob pixel-to-hex, pointy-top)."""
        x, y = self.to_km(lat, lon)
        s = self.size_km
        return FractionalHex((_SQRT3 / 3 * x - y / 3) / s, (2 / 3 * y) / s)

    def to_hex(self, lat: float, lon: float) -> Hex:
        """The hex containing a point."""
        return self.fractional(lat, lon).round()

    def center_km(self, hex: Hex) -> tuple[float, float]:
        """The hex centre in plane km (Red Blob hex-to-pixel, pointy-top)."""
        s = self.size_km
        return (s * (_SQRT3 * hex.q + _SQRT3 / 2 * hex.r), s * 1.5 * hex.r)

    def center(self, hex: Hex) -> tuple[float, float]:
        """The hex centre as ``(lat, lon)``."""
        return self.from_km(*self.center_km(hex))


THEATRE: Final = Projection(lat0=48.6, lat_north=49.70, lon_west=41.75, hex_km=8.0)
"""The Stalingrad map's projection: 8 km hexes, origin 49.70 N 41.75 E (docs/stalingrad/map.md)."""
