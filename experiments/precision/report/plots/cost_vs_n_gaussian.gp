# kexp plot; run `gnuplot cost_vs_n_gaussian.gp` here to redraw cost_vs_n_gaussian.svg
set terminal svg size 1000,1312 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_n_gaussian.svg'
set title 'time against n: gaussian on friedman1'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set grid
set format x '%g'
set format y '%g'
set bmargin 6
set label 100 'kernel_ridge: device=cpu' at screen 0.01, screen 0.0274 left font ',12'
set label 101 'Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0107 left font ',12'
set key above maxcols 1 width 2
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('800' 800, '1600' 1600, '3200' 3200)
set logscale x
set logscale y
$line0 << EOD
800 0.030010308 0.026791848 0.035394165
1600 0.180233687 0.17956985100000003 0.185294107
3200 1.1078398409999999 1.10754712 1.135473675
EOD
$line1 << EOD
800 0.011598611 0.009970762000000001 0.014400528000000001
1600 0.06867827600000001 0.06798785700000001 0.07399437
3200 0.46866785 0.468375859 0.496385543
EOD
$line2 << EOD
800 0.002883473 0.002376519 0.005527442
1600 0.009649327 0.008185623 0.015440735
3200 0.08135596099999999 0.080266475 0.11040572100000001
EOD
$line3 << EOD
800 0.012055132 0.010786289 0.014774301
1600 0.063855117 0.063185741 0.06917013200000001
3200 0.381816914 0.381493074 0.410024952
EOD
$line4 << EOD
800 0.002808171 0.002256869 0.0055463809999999995
1600 0.009505017 0.008755525 0.015577698
3200 0.08209783500000001 0.081103262 0.111656903
EOD
$line5 << EOD
800 0.0101593255 0.009765413 0.012953483
1600 0.064720093 0.064055863 0.07002193500000001
3200 0.401724916 0.401437142 0.429554105
EOD
$line6 << EOD
800 0.002573692 0.0022316109999999997 0.00535712
1600 0.009738438 0.008924877999999999 0.015494409
3200 0.081690924 0.081046925 0.11037691900000002
EOD
$line7 << EOD
800 0.0101510575 0.009643416 0.012888858999999999
1600 0.057157220999999994 0.05648547899999999 0.06236708999999999
3200 0.440657874 0.440324514 0.46868138400000003
EOD
$line8 << EOD
800 0.0028724659999999997 0.002452879 0.005572260000000001
1600 0.008704993 0.008019929 0.014531316
3200 0.084319872 0.083577925 0.11320533700000002
EOD
$line9 << EOD
800 0.0112861545 0.010408618000000001 0.016115481
1600 0.055480224499999994 0.054494912 0.061104108
3200 0.393923439 0.393619768 0.421707693
EOD
$line10 << EOD
800 0.0026372530000000004 0.002248058 0.005735954
1600 0.009595373 0.008802269 0.015631977999999998
3200 0.081193483 0.08039959 0.109763125
EOD
$line11 << EOD
800 0.028595527000000003 0.02825039 0.031190069
1600 0.078046261 0.077361068 0.083358755
3200 0.5010061290000001 0.500709426 0.529063389
EOD
$line12 << EOD
800 0.002640576 0.002261565 0.005494747
1600 0.009411806 0.008523931 0.015462875
3200 0.081375046 0.08040731799999999 0.110170373
EOD
$line13 << EOD
800 0.008851294 0.008353031 0.012030230000000001
1600 0.0481200885 0.044213736999999996 0.056608079
3200 0.33801995100000004 0.337726134 0.366033251
EOD
$line14 << EOD
800 0.0057767370000000005 0.005335722999999999 0.009593638
1600 0.032969491499999996 0.029972435000000002 0.040530949000000004
3200 0.229353163 0.229048522 0.257268141
EOD
$line15 << EOD
800 0.002719649 0.002241098 0.005606668
1600 0.008796123999999999 0.008034342 0.0142936
3200 0.081636273 0.080779081 0.110026773
EOD
$line16 << EOD
800 0.00880214 0.007181957 0.011531781
1600 0.037652147000000004 0.036016764 0.04387029
3200 0.27344277499999997 0.273155973 0.301249745
EOD
$line17 << EOD
800 0.006949173 0.0053945270000000005 0.009577115
1600 0.029103045999999997 0.028283254 0.034481198
3200 0.228254336 0.227946406 0.256071905
EOD
$line18 << EOD
800 0.0028339759999999998 0.0022103509999999997 0.005656154
1600 0.008640921 0.00796988 0.014219742
3200 0.0847677755 0.08355559 0.113564161
EOD
$line19 << EOD
800 0.008257059 0.006934312000000001 0.010954761
1600 0.035357060999999995 0.034314695 0.040959315999999996
3200 0.292880272 0.292568064 0.320674067
EOD
$line20 << EOD
800 0.006997898000000001 0.006103820999999999 0.009718718999999999
1600 0.029955798 0.029254439 0.035300681
3200 0.270866148 0.270524705 0.298641123
EOD
$line21 << EOD
800 0.002949842 0.002467373 0.005612117
1600 0.008705036999999999 0.007993414 0.014423796000000001
3200 0.0847465825 0.084136528 0.112918622
EOD
$line22 << EOD
800 0.008241292 0.006572923 0.010915839
1600 0.0335474525 0.032407816 0.039224313
3200 0.301072403 0.30077402999999997 0.329052593
EOD
$line23 << EOD
800 0.00549803 0.004898803 0.008541378999999998
1600 0.026102926999999998 0.025435865000000002 0.032121895000000004
3200 0.24401927300000004 0.24369317100000001 0.27186102100000004
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'kernel_ridge (dual) lambda=1e-10, precision=double', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#D55E00' title 'kernel_ridge (dual) lambda=1e-10, precision=mixed', \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 2 lc rgb '#009E73' title 'kernel_ridge (dual) lambda=1e-09, precision=double', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 2 lc rgb '#CC79A7' title 'kernel_ridge (dual) lambda=1e-09, precision=mixed', \
     $line4 using 1:2:3:4 with yerrorlines lw 1.5 pt 12 ps 0.8 dashtype 2 lc rgb '#E69F00' title 'kernel_ridge (dual) lambda=1e-08, precision=double', \
     $line5 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#56B4E9' title 'kernel_ridge (dual) lambda=1e-08, precision=mixed', \
     $line6 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#000000' title 'kernel_ridge (dual) lambda=1e-07, precision=double', \
     $line7 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 2 lc rgb '#F0E442' title 'kernel_ridge (dual) lambda=1e-07, precision=mixed', \
     $line8 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'kernel_ridge (dual) lambda=1e-06, precision=double', \
     $line9 using 1:2:3:4 with yerrorlines lw 1.5 pt 12 ps 0.8 dashtype 2 lc rgb '#D55E00' title 'kernel_ridge (dual) lambda=1e-06, precision=mixed', \
     $line10 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#009E73' title 'kernel_ridge (dual) lambda=1e-05, precision=double', \
     $line11 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#CC79A7' title 'kernel_ridge (dual) lambda=1e-05, precision=mixed', \
     $line12 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 2 lc rgb '#E69F00' title 'kernel_ridge (dual) lambda=0.0001, precision=double', \
     $line13 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 2 lc rgb '#56B4E9' title 'kernel_ridge (dual) lambda=0.0001, precision=mixed', \
     $line14 using 1:2:3:4 with yerrorlines lw 1.5 pt 12 ps 0.8 dashtype 2 lc rgb '#000000' title 'kernel_ridge (dual) lambda=0.0001, precision=single', \
     $line15 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#F0E442' title 'kernel_ridge (dual) lambda=0.001, precision=double', \
     $line16 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'kernel_ridge (dual) lambda=0.001, precision=mixed', \
     $line17 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 2 lc rgb '#D55E00' title 'kernel_ridge (dual) lambda=0.001, precision=single', \
     $line18 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 2 lc rgb '#009E73' title 'kernel_ridge (dual) lambda=0.01, precision=double', \
     $line19 using 1:2:3:4 with yerrorlines lw 1.5 pt 12 ps 0.8 dashtype 2 lc rgb '#CC79A7' title 'kernel_ridge (dual) lambda=0.01, precision=mixed', \
     $line20 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#E69F00' title 'kernel_ridge (dual) lambda=0.01, precision=single', \
     $line21 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#56B4E9' title 'kernel_ridge (dual) lambda=0.1, precision=double', \
     $line22 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 2 lc rgb '#000000' title 'kernel_ridge (dual) lambda=0.1, precision=mixed', \
     $line23 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 2 lc rgb '#F0E442' title 'kernel_ridge (dual) lambda=0.1, precision=single'
