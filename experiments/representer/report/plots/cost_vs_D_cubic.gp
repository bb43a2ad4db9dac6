# kexp plot; run `gnuplot cost_vs_D_cubic.gp` here to redraw cost_vs_D_cubic.svg
set terminal svg size 1000,968 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_D_cubic.svg'
set title 'time against the feature dimension D: cubic, n = 1600 training points'
set xlabel 'D (feature dimension of the kernel''s map)'
set ylabel 'time: Gram or features + fit + predict (s)'
set grid
set format x '%g'
set format y '%g'
set bmargin 10
set label 100 'cubic: d=10, noise=0.1, standardize=false, test_fraction=0.2' at screen 0.01, screen 0.1281 left font ',12'
set label 101 'dual_gd: tolerance = 0.' at screen 0.01, screen 0.1054 left font ',12'
set label 102 'primal_gd: tolerance = 0.' at screen 0.01, screen 0.0826 left font ',12'
set label 103 'Crossover primal_gd / dual_gd iterations = 10 (polynomial): not resolved: the times overlap within their measured range at D =' at screen 0.01, screen 0.0599 left font ',12'
set label 104 '1001 and 3003.' at screen 0.01, screen 0.0372 left font ',12'
set label 105 'A primal solver and its dual counterpart share a colour: primal solid, dual dashed. Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0145 left font ',12'
set key above maxcols 1 width 2
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('11' 11, '66' 66, '286' 286, '1000' 1001, '3000' 3003)
set logscale x
set logscale y
set arrow 1 from 1600, graph 0 to 1600, graph 1 nohead dashtype 3 lc rgb '#777777'
set label 1 'D = n = 1600' at 1600, graph 0.830 right offset -0.5,0 font ',12' textcolor rgb '#222222'
set arrow 2 from 884.0828541851301, graph 0 to 884.0828541851301, graph 1 nohead dashtype 3 lc rgb '#777777'
set label 2 'crossover primal_gd / dual_gd iterations = 100 (polynomial): D ≈ 884.1 (856 … 1192)' at 884.0828541851301, graph 0.895 right offset -0.5,0 font ',12' textcolor rgb '#222222'
set label 51 '' at 884.0828541851301, 0.08849730792306156 point pt 7 ps 1.2 lc rgb '#444444'
set arrow 3 from 788.2790844234385, graph 0 to 788.2790844234385, graph 1 nohead dashtype 3 lc rgb '#777777'
set label 3 'crossover primal_gd / dual_gd iterations = 1000 (polynomial): D ≈ 788.3 (784.9 … 814.5)' at 788.2790844234385, graph 0.960 right offset -0.5,0 font ',12' textcolor rgb '#222222'
set label 52 '' at 788.2790844234385, 0.7336188185137164 point pt 7 ps 1.2 lc rgb '#444444'
$line0 << EOD
11 0.010240688999999999 0.009961074 0.0274324
66 0.011060413 0.010230640999999999 0.016204961
286 0.011940286999999999 0.011560346 0.017708474
1001 0.013375367 0.01281656 0.043439836999999995
3003 0.062290828 0.062189611000000006 0.07025113
EOD
$line1 << EOD
11 0.016748787 0.016430781000000002 0.034896233
66 0.017373025 0.016585277 0.022702352
286 0.0183278095 0.017859985 0.024288583000000002
1001 0.0197630965 0.019176703 0.050382912999999994
3003 0.068685264 0.06846930500000001 0.07670700500000001
EOD
$line2 << EOD
11 0.08146371399999999 0.081268556 0.098702699
66 0.080900167 0.080137934 0.08613354799999999
286 0.097875073 0.097556743 0.103717093
1001 0.087521754 0.08701018099999999 0.11747184299999999
3003 0.13764278300000002 0.137595089 0.14545238700000002
EOD
$line3 << EOD
11 0.732519146 0.73233397 0.7497591610000001
66 0.728547728 0.727785735 0.73378238
286 0.728575324 0.728242339 0.734621081
1001 0.734812324 0.734303372 0.764752077
3003 0.801452832 0.801406787 0.809915904
EOD
$line4 << EOD
11 0.000124233 0.00011614799999999999 0.00038517099999999996
66 0.00035377 0.000343574 0.0009113729999999999
286 0.0028184879999999996 0.0027246310000000004 0.004475828
1001 0.010982064 0.010802048 0.013905619
3003 0.0462897805 0.044381945 0.0764021
EOD
$line5 << EOD
11 0.00020179 0.00018667500000000002 0.000399113
66 0.000541895 0.000529287 0.00142886
286 0.00498367 0.004909015 0.006573554999999999
1001 0.019135486 0.018962463 0.022036087
3003 0.0730960505 0.071280285 0.103364214
EOD
$line6 << EOD
11 0.0008870650000000001 0.0008746079999999999 0.0015736659999999998
66 0.002694232 0.002535458 0.003186029
286 0.0267120535 0.026613107000000004 0.028297443999999998
1001 0.100967913 0.100812123 0.103830528
3003 0.32801665449999995 0.326206905 0.35841910999999993
EOD
$line7 << EOD
11 0.008490955 0.008196506 0.008719923
66 0.023233314 0.023170142999999997 0.024208730999999997
286 0.24692173199999998 0.246885321 0.248438102
1001 0.948212387 0.948040917 0.951515156
3003 2.9258275665 2.9240125260000003 2.9566981040000004
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'dual_gd (dual) · polynomial iterations = 1', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#D55E00' title 'dual_gd (dual) · polynomial iterations = 10', \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 2 lc rgb '#009E73' title 'dual_gd (dual) · polynomial iterations = 100', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 2 lc rgb '#CC79A7' title 'dual_gd (dual) · polynomial iterations = 1000', \
     $line4 using 1:2:3:4 with yerrorlines lw 1.5 pt 12 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'primal_gd (primal) · polynomial iterations = 1', \
     $line5 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'primal_gd (primal) · polynomial iterations = 10', \
     $line6 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#009E73' title 'primal_gd (primal) · polynomial iterations = 100', \
     $line7 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 1 lc rgb '#CC79A7' title 'primal_gd (primal) · polynomial iterations = 1000'
