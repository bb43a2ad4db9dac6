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
set xtics ('800' 800, '3200' 3200)
set logscale x
set logscale y
$line0 << EOD
800 0.0468417705 0.044242773 0.052677417000000004
3200 1.983513711 1.973507431 2.009265918
EOD
$line1 << EOD
800 0.018362629499999995 0.017626691 0.024386961000000002
3200 0.40133202100000004 0.391479336 0.427440594
EOD
$line2 << EOD
800 0.003669366 0.0033327319999999997 0.0077936179999999996
3200 0.053979602 0.043381855 0.081818732
EOD
$line3 << EOD
800 0.030047565999999998 0.017176028000000003 0.038421051000000005
3200 0.41263613 0.402529409 0.43905658799999997
EOD
$line4 << EOD
800 0.0035598459999999998 0.0033031239999999997 0.007363039
3200 0.054424581 0.043837021000000004 0.081003532
EOD
$line5 << EOD
800 0.021032647999999998 0.020034512 0.036670201
3200 0.48143508600000007 0.47132601 0.507594063
EOD
$line6 << EOD
800 0.003643408 0.0033591669999999997 0.007428812000000001
3200 0.054582029000000004 0.043465225 0.08713346200000001
EOD
$line7 << EOD
800 0.0174490305 0.015168111 0.023775274
3200 0.469814454 0.459897373 0.49617693299999993
EOD
$line8 << EOD
800 0.0035557370000000002 0.003277411 0.007535237
3200 0.054527821000000004 0.043941770000000005 0.08117054900000001
EOD
$line9 << EOD
800 0.016572610999999998 0.015999991999999998 0.021161135
3200 0.453742131 0.443663159 0.479879527
EOD
$line10 << EOD
800 0.003786697 0.0033849989999999996 0.007529904
3200 0.053979542000000005 0.043530637 0.082300183
EOD
$line11 << EOD
800 0.0394637275 0.03832246499999999 0.04394842400000001
3200 0.5147171509999999 0.504850657 0.5411631870000001
EOD
$line12 << EOD
800 0.0037483850000000003 0.003333863 0.007647174
3200 0.054088462000000004 0.043641244 0.081561746
EOD
$line13 << EOD
800 0.015534243500000001 0.012575468 0.022277795
3200 0.44812921600000005 0.4380354 0.47433618099999997
EOD
$line14 << EOD
800 0.009260338 0.008665878 0.013212694
3200 0.25478247200000004 0.2448802 0.281058582
EOD
$line15 << EOD
800 0.0036866290000000003 0.003421532 0.007433538
3200 0.0518814065 0.040798253 0.081047652
EOD
$line16 << EOD
800 0.011130954 0.010682286 0.019130659
3200 0.298991626 0.28912882100000004 0.325603159
EOD
$line17 << EOD
800 0.0178367925 0.013514868 0.021782642
3200 0.233562405 0.223590716 0.25992107400000003
EOD
$line18 << EOD
800 0.0036535490000000003 0.003306396 0.007634026
3200 0.050768104 0.040674238 0.07801223300000001
EOD
$line19 << EOD
800 0.01469066 0.008321667000000001 0.027207604999999996
3200 0.292727169 0.28285802400000004 0.318844329
EOD
$line20 << EOD
800 0.007116796000000001 0.006791361 0.010798208
3200 0.23074830999999998 0.220868053 0.256942241
EOD
$line21 << EOD
800 0.003578141 0.003300237 0.007536167999999999
3200 0.051169731 0.040931918 0.077970734
EOD
$line22 << EOD
800 0.007951092 0.007693838999999999 0.011849723
3200 0.25529904600000003 0.24544775600000002 0.281461356
EOD
$line23 << EOD
800 0.006435897 0.0061346659999999996 0.010008768
3200 0.21451916499999998 0.204539671 0.240869506
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
